import {
  assertNever,
  normalizeContent,
  typesOf,
  type ActionEvent,
  type ActionProposed,
  type ActionStatus,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection, RowChange } from '../runner/projection';
import { ActionRecord, type ActionStep } from './actions.entity';

type ActionKey = Pick<ActionRecord, 'workspaceId' | 'userId' | 'actionId'>;

/** Every action event: one added to the union must be listed here, and handled by `evolve`. */
export const ACTION_EVENT_TYPES = typesOf<ActionEvent>({
  ActionProposed: true,
  ActionConfirmed: true,
  ActionExecuted: true,
  ActionAborted: true,
  ActionFailed: true,
  ActionExpired: true,
});

type Handled = HandledBy<typeof ACTION_EVENT_TYPES>;

function actionKey(event: DecodedEvent<Handled>): ActionKey {
  const { actionId } = event.event.data;
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

function proposed(key: ActionKey, event: DecodedEvent, data: ActionProposed['data']): ActionRecord {
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
function stepChannel(event: DecodedEvent<Handled>): string | null {
  const { data } = event.event;
  const channel = 'channel' in data ? data.channel : undefined;
  return typeof channel === 'string' ? channel : (event.metadata.channel ?? null);
}

/** The next state of an existing action; `undefined` for an event that does not change it. */
function evolve(current: ActionRecord, event: DecodedEvent<Handled>): ActionRecord | undefined {
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
  const { event: payload } = event;
  switch (payload.type) {
    case 'ActionProposed':
      // A second proposal of a known action changes nothing.
      return undefined;
    case 'ActionConfirmed':
      return { ...current, ...step('confirmed') };
    case 'ActionExecuted': {
      const { data } = payload;
      return { ...current, ...step('executed'), executedAt: at, result: data.result ?? null };
    }
    case 'ActionAborted': {
      const { data } = payload;
      return { ...current, ...step('aborted'), abortReason: data.reason ?? null };
    }
    case 'ActionFailed': {
      const { data } = payload;
      return { ...current, ...step('failed'), error: data.error };
    }
    case 'ActionExpired':
      return { ...current, ...step('expired') };
    default:
      return assertNever(payload);
  }
}

/**
 * Every action of every user with its history of steps. A second proposal of a known action and events
 * about an unknown action change nothing. Actions are history: a memory wipe does not touch them.
 */
export const actionsProjection: Projection<ActionRecord, Handled> = {
  name: 'actions',
  entity: ActionRecord,
  key: ['workspaceId', 'userId', 'actionId'],
  handles: ACTION_EVENT_TYPES,
  keysOf: (event) => [actionKey(event)],
  apply: (event, rows): RowChange<ActionRecord>[] => {
    const key = actionKey(event);
    const current = rows.get(key);
    if (!current && event.event.type === 'ActionProposed') {
      return [{ kind: 'upsert', row: proposed(key, event, event.event.data) }];
    }
    const next = current && evolve(current, event);
    return next ? [{ kind: 'upsert', row: next }] : [];
  },
};
