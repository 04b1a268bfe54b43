import {
  assertNever,
  type ActionExpired,
  type DecidedBy,
  type MemoryApproved,
  type MemoryCandidateDetected,
  type MemoryExpired,
  type MemoryRejected,
  type UserErased,
  type WebhookEventType,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';

/** The domain events the webhooks process manager maps to what subscribers receive. */
export type WebhookSource =
  | ActionExpired
  | MemoryCandidateDetected
  | MemoryApproved
  | MemoryRejected
  | MemoryExpired
  | UserErased;

export const WEBHOOK_SOURCE_TYPES: readonly WebhookSource['type'][] = [
  'ActionExpired',
  'MemoryCandidateDetected',
  'MemoryApproved',
  'MemoryRejected',
  'MemoryExpired',
  'UserErased',
];

/** What one delivery's body says besides its id: the subscriber's event type and its data. */
export type WebhookNotification = Readonly<{
  type: WebhookEventType;
  data: Readonly<Record<string, unknown>>;
}>;

/** Who decided, as ids only (a person's user id and role, or the policy, or the expiry). */
function decider(by: DecidedBy): Record<string, string> {
  return by.kind === 'person' ? { kind: by.kind, userId: by.userId, role: by.role } : { ...by };
}

/**
 * The notification of one event, or undefined when subscribers are not told about it (a candidate
 * the policy approved at once: `awaitsReview` false). Data are ids, statuses and kinds — never
 * personal text: no memory content nor source excerpt, no message, no action summary or target, no
 * reviewer's reason (those stay behind the API's access rules; a subscriber fetches what it may).
 */
export function webhookNotification(
  event: DecodedEvent<WebhookSource>,
  awaitsReview: boolean,
): WebhookNotification | undefined {
  const e = event.event;
  switch (e.type) {
    case 'ActionExpired':
      return {
        type: 'action.expired',
        data: { actionId: e.data.actionId, status: 'expired', expiresAt: e.data.expiresAt },
      };
    case 'MemoryCandidateDetected':
      if (!awaitsReview) return undefined;
      return {
        type: 'memory.pending_review',
        data: {
          memoryId: e.data.memoryId,
          status: 'pending',
          kind: e.data.kind,
          confidence: e.data.confidence,
        },
      };
    case 'MemoryApproved':
      return {
        type: 'memory.approved',
        data: { memoryId: e.data.memoryId, status: 'approved', by: decider(e.data.by) },
      };
    case 'MemoryRejected':
      return {
        type: 'memory.rejected',
        data: { memoryId: e.data.memoryId, status: 'rejected', by: decider(e.data.by) },
      };
    case 'MemoryExpired':
      // Reported as rejected with reason `expired`, as the API reports it (seed 002).
      return {
        type: 'memory.rejected',
        data: {
          memoryId: e.data.memoryId,
          status: 'rejected',
          reason: 'expired',
          by: decider(e.data.by),
        },
      };
    case 'UserErased':
      return { type: 'user.erased', data: { requestedBy: e.data.requestedBy } };
    default:
      return assertNever(e);
  }
}
