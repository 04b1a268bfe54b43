import { assertNever, type Decider } from '../decider';
import type { LlmUsageEvent } from './llm-usage-events';

/** Records one entry of a user's LLM ledger: a call made, work held back by the budget, or resumed. */
export type RecordInLlmLedger = Readonly<{ type: 'RecordInLlmLedger'; entry: LlmUsageEvent }>;

/**
 * A user's daily LLM ledger is a log: the budget is checked against the read model before the work,
 * so nothing in the stream refuses an entry; the state stays empty and the stream is appended to
 * without being read (`appendOnly`), with ids derived from the work so a re-run writes nothing.
 */
export const llmLedgerDecider: Decider<RecordInLlmLedger, LlmUsageEvent, null> = {
  initialState: () => null,
  decide: (command) => [command.entry],
  evolve: (state, event) => {
    switch (event.type) {
      case 'LlmCallRecorded':
      case 'LlmCallDeferred':
      case 'LlmCallResumed':
        return state;
      default:
        return assertNever(event);
    }
  },
};
