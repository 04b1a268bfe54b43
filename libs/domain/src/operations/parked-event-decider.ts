import { assertNever, type Decider } from '../decider';
import { workspaceStream } from '../streams';
import type { ParkedEventDecision, ParkedEventRef } from './parked-event-events';

export type RetryParkedEvent = Readonly<{
  type: 'RetryParkedEvent';
  ref: ParkedEventRef;
  requestedBy: string;
}>;
export type SkipParkedEvent = Readonly<{
  type: 'SkipParkedEvent';
  ref: ParkedEventRef;
  requestedBy: string;
  reason: string;
}>;
export type ParkedEventCommand = RetryParkedEvent | SkipParkedEvent;

/** Decisions are records of what an operator asked; the consumer holding the event carries them out. */
export type OperationsState = Readonly<{ decisions: number }>;

/** The operations stream of a workspace: operators' decisions on its owners' parked events. */
export function operationsStream(workspaceId: string): string {
  return workspaceStream(workspaceId, 'operations', 'parked-events');
}

export const parkedEventDecider: Decider<ParkedEventCommand, ParkedEventDecision, OperationsState> =
  {
    initialState: () => ({ decisions: 0 }),
    decide: (command) => {
      switch (command.type) {
        case 'RetryParkedEvent':
          return [
            {
              type: 'ParkedEventRetryRequested',
              data: { ...command.ref, requestedBy: command.requestedBy },
            },
          ];
        case 'SkipParkedEvent':
          return [
            {
              type: 'ParkedEventSkipped',
              data: { ...command.ref, requestedBy: command.requestedBy, reason: command.reason },
            },
          ];
        default:
          return assertNever(command);
      }
    },
    evolve: (state, event) => {
      switch (event.type) {
        case 'ParkedEventRetryRequested':
        case 'ParkedEventSkipped':
          return { decisions: state.decisions + 1 };
        default:
          return assertNever(event);
      }
    },
  };
