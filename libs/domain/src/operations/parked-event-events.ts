import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

/**
 * What names one parked event: the background consumer (a projection, or a process manager as
 * `reactor:<name>`), the owner whose later events wait behind it, and the event itself.
 */
export type ParkedEventRef = Readonly<{
  consumer: string;
  workspaceId: string;
  /** Null for a workspace-level owner (policies, agent settings). */
  userId: string | null;
  eventId: string;
}>;

/** An operator asked the consumer to apply the parked event again (after a fix), then the owner's later events. */
export type ParkedEventRetryRequested = Event<
  'ParkedEventRetryRequested',
  ParkedEventRef & { requestedBy: string }
>;

/** An operator decided that the consumer passes over the parked event for good, and said why. */
export type ParkedEventSkipped = Event<
  'ParkedEventSkipped',
  ParkedEventRef & { requestedBy: string; reason: string }
>;

export type ParkedEventDecision = ParkedEventRetryRequested | ParkedEventSkipped;

export const PARKED_EVENT_DECISION_TYPES = [
  'ParkedEventRetryRequested',
  'ParkedEventSkipped',
] as const;

// Operators' records: ids and an operator's reason, no personal data of the owner.
export const OPERATIONS_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'ParkedEventRetryRequested', version: 1, personalFields: [] },
  { type: 'ParkedEventSkipped', version: 1, personalFields: [] },
];
