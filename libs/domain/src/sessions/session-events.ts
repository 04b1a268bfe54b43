import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

export type RollingSummaryExtended = Event<
  'RollingSummaryExtended',
  {
    sessionId: string;
    /** Global position of the last message the summary now covers (decimal string). */
    throughPosition: string;
    /** How many messages this extension added, and how many the summary covers in all. */
    messageCount: number;
    summarizedCount: number;
    summary: string;
    model: string;
  }
>;
export type RollingSummaryFailed = Event<
  'RollingSummaryFailed',
  { sessionId: string; throughPosition: string; reason: string; model: string }
>;

export type SessionEvent = RollingSummaryExtended | RollingSummaryFailed;

export const SESSION_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'RollingSummaryExtended', version: 1, personalFields: ['summary'] },
  { type: 'RollingSummaryFailed', version: 1, personalFields: [] },
];
