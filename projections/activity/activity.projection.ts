import { EVENT_CATALOG, type DomainEvent, type DomainEventType } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import { detailsOf } from '@engram/prompt-blocks';
import type { Projection } from '../runner/projection';
import { ActivityEvent } from './activity.entity';
import { activityEntry, eventChannel } from './activity.entry';

/**
 * Not in anyone's feed: workspace-level events belong to no user's history, and MemoriesUsed is
 * bookkeeping of reads (the LRU), not something that was done for the user.
 */
export const NOT_IN_ACTIVITY = [
  'MemoryPolicyChanged',
  'AgentMemoryToggled',
  'MemoriesUsed',
  // Operators' decisions on parked events (workspace-level records).
  'ParkedEventRetryRequested',
  'ParkedEventSkipped',
  // Erasure deletes the feed itself (the runner turns it into a delete of the user's rows).
  'UserErased',
  // The LLM ledger: bookkeeping of the work above (one per call), shown by GET /v1/me/llm-usage.
  // Work the budget held back (LlmCallDeferred) is in the feed: the user notices what did not happen.
  'LlmCallRecorded',
  'LlmCallResumed',
  // Webhook endpoints: the workspace's configuration, listed to its admins.
  'WebhookRegistered',
  'WebhookRemoved',
  // Service keys of agents: workspace-level records of credentials, listed to the admins.
  'AgentKeyIssued',
  'AgentKeyRevoked',
  'AgentKeyUsed',
] as const satisfies readonly DomainEventType[];

type ActivityHandled = Exclude<DomainEvent, { type: (typeof NOT_IN_ACTIVITY)[number] }>;

function isInActivity(type: string): type is ActivityHandled['type'] {
  return !(NOT_IN_ACTIVITY as readonly string[]).includes(type);
}

/** Every other event type of the catalog. */
export const ACTIVITY_EVENT_TYPES: readonly ActivityHandled['type'][] = EVENT_CATALOG.map(
  (definition) => definition.type,
).filter(isInActivity);

export function isActionEventType(type: string): boolean {
  return type.startsWith('Action');
}

function activityRow(event: DecodedEvent<ActivityHandled>): ActivityEvent {
  const position = event.globalPosition.toString();
  const traceId = event.metadata.traceId ?? null;
  const isAction = isActionEventType(event.event.type);
  return {
    workspaceId: event.metadata.workspaceId,
    userId: event.metadata.userId,
    position,
    eventType: event.event.type,
    occurredAt: new Date(event.metadata.occurredAt),
    channel: eventChannel(event),
    traceId,
    groupKey: traceId ?? `event:${position}`,
    details: detailsOf(activityEntry(event)),
    actionId: isAction && 'actionId' in event.event.data ? event.event.data.actionId : null,
  };
}

/**
 * The user's history, one row per event, grouped by trace for the activity feed. Rows are never
 * updated or deleted: a memory wipe is one more line of history.
 */
export const activityProjection: Projection<ActivityEvent, ActivityHandled> = {
  name: 'activity_events',
  entity: ActivityEvent,
  key: ['workspaceId', 'userId', 'position'],
  handles: ACTIVITY_EVENT_TYPES,
  keysOf: () => [],
  apply: (event) => [{ kind: 'upsert', row: activityRow(event) }],
};
