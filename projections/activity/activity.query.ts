import {
  activityEntryOf,
  type ActivityAction,
  type ActivityDetails,
  type ActivityEntry,
  type ActivityTitleSource,
} from '@engram/prompt-blocks';
import type { EntityManager } from 'typeorm';
import { activityAction } from './activity.entry';
import { isActionEventType } from './activity.projection';

export type ActivityGroupEvent = Readonly<{
  type: string;
  at: Date;
  channel: string | null;
  /** What happened, for `activitySummary` to write in the reader's language. */
  entry: ActivityEntry;
  /** Global position (decimal string). */
  position: string;
}>;

/** The events of one trace (or one event without a trace), as the feed shows them. */
export type ActivityGroup = Readonly<{
  groupKey: string;
  traceId: string | null;
  /** What names the group (`activityTitle`): its first action event's action, else its first event. */
  title: ActivityTitleSource;
  /** Distinct, in order of appearance. */
  channels: string[];
  /** When the first and the last event (by position) occurred. */
  firstAt: Date;
  lastAt: Date;
  /** Position of the group's first event: its place in the feed, and the paging cursor. */
  firstPosition: string;
  /** Oldest first. */
  events: ActivityGroupEvent[];
}>;

export type ActivityPageRequest = Readonly<{
  /** Keyset cursor: only groups whose first event is before this position (the last page's last firstPosition). */
  beforeFirstPosition?: string | undefined;
  limit: number;
}>;

type EventRow = {
  position: string;
  group_key: string;
  event_type: string;
  occurred_at: Date;
  channel: string | null;
  trace_id: string | null;
  details: ActivityDetails;
  action_tool: string | null;
  action_target: string | null;
  action_summary: string | null;
};

/**
 * A page of the user's activity, grouped by trace, newest group first. A group's place is its first
 * event's position, so events arriving later in an old group never reorder the feed: paging with
 * `beforeFirstPosition` neither repeats nor skips a group. Two queries: the page's groups, their events.
 */
export async function findActivityPage(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  request: ActivityPageRequest,
): Promise<ActivityGroup[]> {
  const limit = Math.floor(request.limit);
  if (limit <= 0) return [];
  const before = request.beforeFirstPosition;
  if (before !== undefined && !/^-?\d{1,19}$/.test(before)) {
    throw new RangeError(`beforeFirstPosition must be a position, got ${JSON.stringify(before)}`);
  }
  // The first event of each group: no earlier event with its group key (an index probe per row).
  const groups = await manager.query<{ group_key: string }[]>(
    `SELECT e.group_key
       FROM activity_events e
      WHERE e.workspace_id = $1 AND e.user_id = $2
        AND ($3::bigint IS NULL OR e.position < $3::bigint)
        AND NOT EXISTS (
          SELECT 1 FROM activity_events earlier
           WHERE earlier.workspace_id = e.workspace_id AND earlier.user_id = e.user_id
             AND earlier.group_key = e.group_key AND earlier.position < e.position)
      ORDER BY e.position DESC
      LIMIT $4`,
    [workspaceId, userId, before ?? null, limit],
  );
  if (groups.length === 0) return [];
  const rows = await manager.query<EventRow[]>(
    `SELECT e.position::text AS position, e.group_key, e.event_type, e.occurred_at, e.channel,
            e.trace_id, e.details,
            a.tool AS action_tool, a.target AS action_target, a.summary AS action_summary
       FROM activity_events e
       LEFT JOIN actions a
         ON a.workspace_id = e.workspace_id AND a.user_id = e.user_id AND a.action_id = e.action_id
      WHERE e.workspace_id = $1 AND e.user_id = $2 AND e.group_key = ANY($3::text[])
      ORDER BY e.position`,
    [workspaceId, userId, groups.map((group) => group.group_key)],
  );
  const byKey = new Map<string, EventRow[]>();
  for (const row of rows) {
    const events = byKey.get(row.group_key) ?? [];
    events.push(row);
    byKey.set(row.group_key, events);
  }
  return groups.flatMap((group) => {
    const events = byKey.get(group.group_key);
    return events ? [toGroup(group.group_key, events)] : [];
  });
}

const entryOf = (row: EventRow): ActivityEntry => activityEntryOf(row.event_type, row.details);

/**
 * What names a group: the action its first action event is about, as the actions read model has
 * it; until that model has it, a proposal's own fields; else the event itself.
 */
function titleOf(row: EventRow): ActivityTitleSource {
  const entry = entryOf(row);
  const action: ActivityAction | null =
    row.action_tool !== null && row.action_summary !== null
      ? activityAction({
          tool: row.action_tool,
          target: row.action_target,
          summary: row.action_summary,
        })
      : entry.type === 'ActionProposed'
        ? entry
        : null;
  return { action, entry, channel: row.channel };
}

function toGroup(groupKey: string, rows: readonly EventRow[]): ActivityGroup {
  const first = rows[0] as EventRow;
  const last = rows[rows.length - 1] as EventRow;
  const titled = rows.find((row) => isActionEventType(row.event_type)) ?? first;
  const channels: string[] = [];
  for (const row of rows) {
    if (row.channel !== null && !channels.includes(row.channel)) channels.push(row.channel);
  }
  return {
    groupKey,
    traceId: first.trace_id,
    title: titleOf(titled),
    channels,
    firstAt: first.occurred_at,
    lastAt: last.occurred_at,
    firstPosition: first.position,
    events: rows.map((row) => ({
      type: row.event_type,
      at: row.occurred_at,
      channel: row.channel,
      entry: entryOf(row),
      position: row.position,
    })),
  };
}
