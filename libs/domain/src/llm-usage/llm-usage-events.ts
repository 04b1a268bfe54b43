import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

/** What an LLM call was for: the three kinds of work process managers ask a model for. */
export const LLM_CALL_PURPOSES = ['extraction', 'summary', 'identity_card'] as const;
export type LlmCallPurpose = (typeof LLM_CALL_PURPOSES)[number];

/**
 * The work a workspace's daily budget holds back. The identity card is not budgeted: it is
 * regenerated at most once per debounce period, and only after budgeted extraction changed the
 * approved memories (holding it back would leave a stale card at the bottom of every prompt).
 */
export const BUDGETED_PURPOSES = ['extraction', 'summary'] as const;
export type BudgetedPurpose = (typeof BUDGETED_PURPOSES)[number];

/**
 * ok: the answer was used; invalid: the model answered something unusable (recorded and dropped);
 * failed: the service was down, slow or refusing (the work is tried again later).
 */
export const LLM_CALL_OUTCOMES = ['ok', 'invalid', 'failed'] as const;
export type LlmCallOutcome = (typeof LLM_CALL_OUTCOMES)[number];

/**
 * One LLM call made for a user, on their daily ledger stream. No personal text: the cause names the
 * work by ids (`message/{messageId}`, `session/{sessionId}/{throughPosition}`,
 * `memories/{position}`) and the reason is the failure's code only (`http_500`, `invalid_schema`),
 * never the message of an error, which may quote the model or the user.
 */
export type LlmCallRecorded = Event<
  'LlmCallRecorded',
  {
    purpose: LlmCallPurpose;
    cause: string;
    /** The model's name, or `offline-rules` for the offline extractor, summarizer and card. */
    engine: string;
    promptTokens: number;
    completionTokens: number;
    latencyMs: number;
    outcome: LlmCallOutcome;
    reason?: string;
    /** The day of the call in the workspace policy's time zone (yyyy-mm-dd): the budget's day. */
    day: string;
  }
>;

/**
 * The user's daily budget was spent: the work waits until `until` (the next day in the policy's time
 * zone) instead of calling the model. `messageId` is the message whose reaction was held back (the
 * job reacts to it again); `generation` (extraction) is the user's wipe generation at the time, so
 * that a message from before a wipe is not analysed into the memories that follow it.
 */
export type LlmCallDeferred = Event<
  'LlmCallDeferred',
  {
    purpose: BudgetedPurpose;
    /** `message/{messageId}` for an extraction, `session/{sessionId}` for a summary. */
    cause: string;
    messageId: string;
    generation?: number;
    limit: number;
    day: string;
    until: string;
  }
>;

/** The deferred work ran (or found nothing left to do) once `until` had passed. */
export type LlmCallResumed = Event<
  'LlmCallResumed',
  { purpose: BudgetedPurpose; cause: string; until: string }
>;

export type LlmUsageEvent = LlmCallRecorded | LlmCallDeferred | LlmCallResumed;

// Ids, counts and model names: no personal data (the texts the calls read are in other events).
export const LLM_USAGE_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'LlmCallRecorded', version: 1, personalFields: [] },
  { type: 'LlmCallDeferred', version: 1, personalFields: [] },
  { type: 'LlmCallResumed', version: 1, personalFields: [] },
];
