import type { ActionStatus } from '@engram/domain';

/**
 * What the writing tools answer a model, in English (a write reads no policy): ids and statuses
 * only, nothing anybody typed.
 */
export const WRITE_RESULTS_TEXT = {
  messageRecorded: (messageId: string): string => `Message ${messageId} recorded.`,
  actionProposed: (actionId: string, status: ActionStatus, expiresAt?: string): string =>
    `Action ${actionId} is ${status}` +
    (status === 'pending' && expiresAt ? `, waiting for confirmation until ${expiresAt}.` : '.'),
  actionMoved: (actionId: string, status: ActionStatus): string =>
    `Action ${actionId} is now ${status}.`,
  memoryForgotten: (memoryId: string): string => `Memory ${memoryId} forgotten.`,
} as const;
