import { assertNever, type Decider } from '../decider';
import type { MessageData, MessageEvent } from './message-events';

export type RecordMessage = Readonly<{ type: 'RecordMessage'; data: MessageData }>;

export type MessageCommand = RecordMessage;

export type MessageState =
  Readonly<{ status: 'absent' }> | Readonly<{ status: 'recorded'; messageId: string }>;

/** A message is recorded once; recording it again (a client retry) decides nothing new. */
export const messageDecider: Decider<MessageCommand, MessageEvent, MessageState> = {
  initialState: () => ({ status: 'absent' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'RecordMessage':
        if (state.status === 'recorded') return [];
        return [{ type: 'MessageRecorded', data: { ...command.data } }];
      default:
        return assertNever(command.type);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'MessageRecorded':
        return { status: 'recorded', messageId: event.data.messageId };
      default:
        return assertNever(event.type);
    }
  },
};
