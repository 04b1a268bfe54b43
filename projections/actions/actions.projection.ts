import {
  normalizeContent,
  type ActionAborted,
  type ActionConfirmed,
  type ActionExecuted,
  type ActionFailed,
  type ActionProposed,
  type ActionStatus,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { Projection, RowChange } from '../runner/projection';
import { ActionRecord, type ActionStep } from './actions.entity';

type ActionKey = Pick<ActionRecord, 'workspaceId' | 'userId' | 'actionId'>;

export const ACTION_EVENT_TYPES = [
  'ActionProposed',
  'ActionConfirmed',
  'ActionExecuted',
  'ActionAborted',
  'ActionFailed',
  'ActionExpired',
] as const;

function actionKey(event: DecodedEvent): ActionKey | undefined {
  if (!(ACTION_EVENT_TYPES as readonly string[]).includes(event.event.type)) return undefined;
  const { actionId } = (event.event as ActionConfirmed).data;
  return { workspaceId: event.metadata.workspaceId, userId: event.metadata.userId, actionId };
}

/** What recall searches: tool, target, summary and input, without accents, case or punctuation. */
export function actionSearchText(
  data: Pick<ActionProposed['data'], 'tool' | 'target' | 'summary' | 'input'>,
): string {
  const parts = [data.tool, data.target ?? '', data.summary];
  if (data.input !== undefined) parts.push(JSON.stringify(data.input));
  return normalizeContent(parts.join(' '));
}

function proposed(key: ActionKey, event: DecodedEvent): ActionRecord {
  const { data } = event.event as ActionProposed;
  const at = new Date(event.metadata.occurredAt);
  const status: ActionStatus = data.requiresConfirmation ? 'pending' : 'confirmed';
  return {
    ...key,
    traceId: event.metadata.traceId ?? null,
    tool: data.tool,
    target: data.target ?? null,
    summary: data.summary,
    input: data.input ?? null,
    status,
    requestedVia: data.channel,
    requiresConfirmation: data.requiresConfirmation,
    steps: [{ status, channel: data.channel, at: at.toISOString() }],
    expiresAt: data.expiresAt === undefined ? null : new Date(data.expiresAt),
    createdAt: at,
    updatedAt: at,
    executedAt: null,
    result: null,
    error: null,
    abortReason: null,
    searchText: actionSearchText(data),
    position: event.globalPosition.toString(),
  };
}

/** The channel a step happened on: the event's own, else the request's (metadata). */
function stepChannel(event: DecodedEvent): string | null {
  const { channel } = event.event.data as { channel?: unknown };
  return typeof channel === 'string' ? channel : (event.metadata.channel ?? null);
}

/** The next state of an existing action; `undefined` for an event that does not change it. */
function evolve(current: ActionRecord, event: DecodedEvent): ActionRecord | undefined {
  const at = new Date(event.metadata.occurredAt);
  const step = (
    status: ActionStatus,
  ): Pick<ActionRecord, 'status' | 'steps' | 'updatedAt' | 'position'> => {
    const next: ActionStep = { status, channel: stepChannel(event), at: at.toISOString() };
    return {
      status,
      steps: [...current.steps, next],
      updatedAt: at,
      position: event.globalPosition.toString(),
    };
  };
  switch (event.event.type) {
    case 'ActionConfirmed':
      return { ...current, ...step('confirmed') };
    case 'ActionExecuted': {
      const { data } = event.event as ActionExecuted;
      return { ...current, ...step('executed'), executedAt: at, result: data.result ?? null };
    }
    case 'ActionAborted': {
      const { data } = event.event as ActionAborted;
      return { ...current, ...step('aborted'), abortReason: data.reason ?? null };
    }
    case 'ActionFailed': {
      const { data } = event.event as ActionFailed;
      return { ...current, ...step('failed'), error: data.error };
    }
    case 'ActionExpired':
      return { ...current, ...step('expired') };
    default:
      return undefined;
  }
}

/**
 * Every action of every user with its history of steps. A second proposal of a known action and events
 * about an unknown action change nothing. Actions are history: a memory wipe does not touch them.
 */
export const actionsProjection: Projection<ActionRecord> = {
  name: 'actions',
  entity: ActionRecord,
  key: ['workspaceId', 'userId', 'actionId'],
  handles: [...ACTION_EVENT_TYPES],
  keysOf: (event) => {
    const key = actionKey(event);
    return key ? [key] : [];
  },
  apply: (event, rows): RowChange<ActionRecord>[] => {
    const key = actionKey(event);
    if (!key) return [];
    const current = rows.get(key);
    if (event.event.type === 'ActionProposed') {
      return current ? [] : [{ kind: 'upsert', row: proposed(key, event) }];
    }
    const next = current && evolve(current, event);
    return next ? [{ kind: 'upsert', row: next }] : [];
  },
};
