import { IdempotencyConflictError, assertNever, type Decider } from '../decider';
import { sameJson } from '../same-json';
import type { MessageData, MessageEvent } from './message-events';

export type RecordMessage = Readonly<{ type: 'RecordMessage'; data: MessageData }>;

export type RecordExtractionFailure = Readonly<{
  type: 'RecordExtractionFailure';
  data: { reason: string; model: string };
}>;

export type MessageCommand = RecordMessage | RecordExtractionFailure;

export type MessageState =
  | Readonly<{ status: 'absent' }>
  | Readonly<{
      status: 'recorded';
      messageId: string;
      /** What was recorded: a retry must ask for the same. */
      data: MessageData;
      failures: readonly string[];
    }>;

/**
 * A message is recorded once; recording it again (a client retry) decides nothing new, and recording
 * another message under its id is an idempotency conflict. The extractor's failures on it are
 * recorded once per reason.
 */
export const messageDecider: Decider<MessageCommand, MessageEvent, MessageState> = {
  initialState: () => ({ status: 'absent' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'RecordMessage':
        if (state.status === 'absent') {
          return [{ type: 'MessageRecorded', data: { ...command.data } }];
        }
        if (!sameJson(state.data, command.data)) {
          throw new IdempotencyConflictError('messageId', state.messageId);
        }
        return [];
      case 'RecordExtractionFailure':
        if (state.status !== 'recorded' || state.failures.includes(command.data.reason)) return [];
        return [
          {
            type: 'MemoryExtractionFailed',
            data: { messageId: state.messageId, ...command.data },
          },
        ];
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'MessageRecorded':
        return {
          status: 'recorded',
          messageId: event.data.messageId,
          data: event.data,
          failures: [],
        };
      case 'MemoryExtractionFailed':
        if (state.status !== 'recorded') return state;
        return { ...state, failures: [...state.failures, event.data.reason] };
      default:
        return assertNever(event);
    }
  },
};
