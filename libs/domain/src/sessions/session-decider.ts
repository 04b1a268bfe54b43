import { assertNever, type Decider } from '../decider';
import type { RollingSummaryExtended, RollingSummaryFailed, SessionEvent } from './session-events';

export type ExtendRollingSummary = Readonly<{
  type: 'ExtendRollingSummary';
  data: RollingSummaryExtended['data'];
}>;
export type RecordSummaryFailure = Readonly<{
  type: 'RecordSummaryFailure';
  data: RollingSummaryFailed['data'];
}>;
export type SessionCommand = ExtendRollingSummary | RecordSummaryFailure;

export type SessionState = Readonly<{
  throughPosition: bigint;
  summarizedCount: number;
  failures: readonly string[];
}>;

/**
 * The rolling summary of one session. An extension that does not go past what is already covered
 * decides nothing, so a summarizer that crashed between the LLM answer and the append, then ran
 * again, cannot record two summaries of the same range.
 */
export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState: () => ({ throughPosition: 0n, summarizedCount: 0, failures: [] }),
  decide: (command, state) => {
    switch (command.type) {
      case 'ExtendRollingSummary':
        if (BigInt(command.data.throughPosition) <= state.throughPosition) return [];
        return [{ type: 'RollingSummaryExtended', data: command.data }];
      case 'RecordSummaryFailure': {
        const key = `${command.data.throughPosition}:${command.data.reason}`;
        if (state.failures.includes(key)) return [];
        return [{ type: 'RollingSummaryFailed', data: command.data }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'RollingSummaryExtended':
        return {
          ...state,
          throughPosition: BigInt(event.data.throughPosition),
          summarizedCount: event.data.summarizedCount,
        };
      case 'RollingSummaryFailed':
        return {
          ...state,
          failures: [...state.failures, `${event.data.throughPosition}:${event.data.reason}`],
        };
      default:
        return assertNever(event);
    }
  },
};
