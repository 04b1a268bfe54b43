import type { EntityManager } from 'typeorm';
import { listCheckpoints } from './checkpoints';
import { baseNameOf, ownerKey, type Owner } from './partitions';

/** An event one consumer could not apply: that owner's later events wait behind it. */
export type ParkedEvent = Readonly<{
  /** The projection, or `reactor:<name>` for a process manager (whatever the partition count). */
  consumer: string;
  /** The partition that parked it (its checkpoint's name). */
  partition: string;
  workspaceId: string;
  /** `~` for a workspace-level owner. */
  userId: string;
  position: bigint;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}>;

type Row = {
  consumer: string;
  partition: string;
  workspace_id: string;
  user_id: string;
  position: string;
  event_id: string;
  event_type: string;
  error: string;
  attempts: number;
  first_seen_at: Date;
  last_seen_at: Date;
};

const MAX_ERROR_LENGTH = 500;

/**
 * The error as it is recorded and logged: its class and message only, cut short. PostgreSQL's
 * `detail` (which may quote the refused value, i.e. a user's text) is never kept.
 */
export function describeFailure(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : `${typeof error}: ${String(error)}`;
  const code = (error as { code?: unknown } | null)?.code;
  const withCode = typeof code === 'string' ? `[${code}] ${text}` : text;
  return withCode.length <= MAX_ERROR_LENGTH
    ? withCode
    : `${withCode.slice(0, MAX_ERROR_LENGTH - 1)}…`;
}

function fromRow(row: Row): ParkedEvent {
  return {
    consumer: row.consumer,
    partition: row.partition,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    position: BigInt(row.position),
    eventId: row.event_id,
    eventType: row.event_type,
    error: row.error,
    attempts: row.attempts,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
  };
}

/** The owners a partition holds back, by owner key. */
export async function loadParked(
  manager: EntityManager,
  consumer: string,
  partition: string,
): Promise<Map<string, ParkedEvent>> {
  const rows = await manager.query<Row[]>(
    'SELECT * FROM parked_events WHERE consumer = $1 AND partition = $2',
    [consumer, partition],
  );
  return new Map(
    rows.map((row) => {
      const parked = fromRow(row);
      return [ownerKey(parked), parked];
    }),
  );
}

export async function listParked(manager: EntityManager): Promise<ParkedEvent[]> {
  const rows = await manager.query<Row[]>(
    'SELECT * FROM parked_events ORDER BY first_seen_at, consumer, workspace_id, user_id',
  );
  return rows.map(fromRow);
}

/** Parked events by consumer, through a function the API role may call (it cannot read the rows). */
export async function countParked(
  manager: Pick<EntityManager, 'query'>,
): Promise<Map<string, number>> {
  const rows = await manager.query<{ consumer: string; parked: string }[]>(
    'SELECT consumer, parked FROM engram_parked_counts()',
  );
  return new Map(rows.map((row) => [row.consumer, Number(row.parked)]));
}

/** Every consumer that has a checkpoint, with its parked events (0 for most): for gauges and health. */
export async function parkedByConsumer(manager: EntityManager): Promise<Map<string, number>> {
  const [checkpoints, counts] = await Promise.all([listCheckpoints(manager), countParked(manager)]);
  const all = new Map<string, number>();
  for (const { name } of checkpoints) all.set(baseNameOf(name), 0);
  for (const [consumer, count] of counts) all.set(consumer, count);
  return all;
}

/**
 * Parks (or parks again, one attempt more when it is the same event) the event that stopped an owner.
 * Runs in the transaction that moves the consumer's checkpoint past it.
 */
export async function park(
  manager: EntityManager,
  event: Omit<ParkedEvent, 'firstSeenAt' | 'lastSeenAt' | 'attempts'> & { attempts: number },
): Promise<ParkedEvent> {
  const rows = await manager.query<Row[]>(
    `INSERT INTO parked_events AS p (consumer, partition, workspace_id, user_id, position, event_id,
                                     event_type, error, attempts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (consumer, workspace_id, user_id) DO UPDATE SET
       partition = excluded.partition,
       attempts = CASE WHEN p.event_id = excluded.event_id THEN p.attempts + excluded.attempts
                       ELSE excluded.attempts END,
       first_seen_at = CASE WHEN p.event_id = excluded.event_id THEN p.first_seen_at ELSE now() END,
       position = excluded.position, event_id = excluded.event_id,
       event_type = excluded.event_type, error = excluded.error, last_seen_at = now()
     RETURNING *`,
    [
      event.consumer,
      event.partition,
      event.workspaceId,
      event.userId,
      event.position.toString(),
      event.eventId,
      event.eventType,
      event.error,
      event.attempts,
    ],
  );
  return fromRow(rows[0]!);
}

export async function unpark(
  manager: EntityManager,
  consumer: string,
  owner: Owner,
): Promise<void> {
  await manager.query(
    'DELETE FROM parked_events WHERE consumer = $1 AND workspace_id = $2 AND user_id = $3',
    [consumer, owner.workspaceId, owner.userId],
  );
}

/** A rebuild starts over: what was parked will be met again, and parked again if it still fails. */
export async function clearParked(manager: EntityManager, consumer: string): Promise<void> {
  await manager.query('DELETE FROM parked_events WHERE consumer = $1', [consumer]);
}
