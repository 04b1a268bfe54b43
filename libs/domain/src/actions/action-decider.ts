import {
  DomainConflictError,
  DomainNotFoundError,
  IdempotencyConflictError,
  assertNever,
  type Decider,
} from '../decider';
import { sameJson } from '../same-json';
import type { ActionEvent, ActionProposed } from './action-events';

export const ACTION_STATUSES = [
  'pending',
  'confirmed',
  'executed',
  'aborted',
  'failed',
  'expired',
] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export type ProposeAction = Readonly<{ type: 'ProposeAction'; data: ActionProposed['data'] }>;
/** `now` (ISO) comes with the command: a pending action past its expiry can no longer be confirmed. */
export type ConfirmAction = Readonly<{ type: 'ConfirmAction'; channel: string; now: string }>;
export type ExecuteAction = Readonly<{
  type: 'ExecuteAction';
  channel?: string | undefined;
  result?: Record<string, unknown> | undefined;
}>;
export type AbortAction = Readonly<{
  type: 'AbortAction';
  channel?: string | undefined;
  reason?: string | undefined;
}>;
export type FailAction = Readonly<{ type: 'FailAction'; error: string }>;
export type ExpireAction = Readonly<{ type: 'ExpireAction'; now: string }>;

export type ActionCommand =
  ProposeAction | ConfirmAction | ExecuteAction | AbortAction | FailAction | ExpireAction;

export type ActionState =
  | Readonly<{ status: 'absent' }>
  | Readonly<{
      status: ActionStatus;
      actionId: string;
      expiresAt?: string | undefined;
      /** What was proposed: proposing it again must ask for the same. */
      proposal: ActionProposed['data'];
    }>;

function refuse(state: ActionState, action: string): never {
  if (state.status === 'absent')
    throw new DomainNotFoundError(`Action not found: cannot ${action} it`);
  throw new DomainConflictError(`Cannot ${action} an action whose status is ${state.status}`);
}

/**
 * Whether a proposal asks for what was proposed. The expiry is left out: it is computed from the
 * clock when the request arrives, so a retry a moment later asks for the same with another expiry.
 */
function isSameProposal(proposed: ActionProposed['data'], asked: ActionProposed['data']): boolean {
  const { expiresAt: _proposedExpiry, ...first } = proposed;
  const { expiresAt: _askedExpiry, ...again } = asked;
  return sameJson(first, again);
}

function isPastExpiry(state: ActionState, now: string): boolean {
  return (
    state.status !== 'absent' && !!state.expiresAt && Date.parse(now) >= Date.parse(state.expiresAt)
  );
}

/**
 * An action an assistant proposed and what became of it, across channels:
 * pending → confirmed → executed; pending | confirmed → aborted; confirmed → failed; pending → expired.
 * `requiresConfirmation: false` starts at confirmed. Proposing the same action again decides nothing;
 * proposing another one under its id is an idempotency conflict.
 */
export const actionDecider: Decider<ActionCommand, ActionEvent, ActionState> = {
  initialState: () => ({ status: 'absent' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'ProposeAction':
        if (state.status === 'absent') return [{ type: 'ActionProposed', data: command.data }];
        if (!isSameProposal(state.proposal, command.data)) {
          throw new IdempotencyConflictError('actionId', state.actionId);
        }
        return [];
      case 'ConfirmAction':
        if (state.status !== 'pending') refuse(state, 'confirm');
        if (isPastExpiry(state, command.now)) {
          throw new DomainConflictError(
            `Cannot confirm an action that expired at ${state.expiresAt}`,
          );
        }
        return [
          { type: 'ActionConfirmed', data: { actionId: state.actionId, channel: command.channel } },
        ];
      case 'ExecuteAction':
        if (state.status !== 'confirmed') refuse(state, 'execute');
        return [
          {
            type: 'ActionExecuted',
            data: {
              actionId: state.actionId,
              ...(command.channel ? { channel: command.channel } : {}),
              ...(command.result ? { result: command.result } : {}),
            },
          },
        ];
      case 'AbortAction':
        if (state.status !== 'pending' && state.status !== 'confirmed') refuse(state, 'abort');
        return [
          {
            type: 'ActionAborted',
            data: {
              actionId: state.actionId,
              ...(command.channel ? { channel: command.channel } : {}),
              ...(command.reason ? { reason: command.reason } : {}),
            },
          },
        ];
      case 'FailAction':
        if (state.status !== 'confirmed') refuse(state, 'fail');
        return [{ type: 'ActionFailed', data: { actionId: state.actionId, error: command.error } }];
      case 'ExpireAction':
        // The scheduler may run twice or late: only a pending action past its expiry expires.
        if (state.status !== 'pending' || !state.expiresAt || !isPastExpiry(state, command.now))
          return [];
        return [
          { type: 'ActionExpired', data: { actionId: state.actionId, expiresAt: state.expiresAt } },
        ];
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'ActionProposed':
        return {
          status: event.data.requiresConfirmation ? 'pending' : 'confirmed',
          actionId: event.data.actionId,
          expiresAt: event.data.expiresAt,
          proposal: event.data,
        };
      case 'ActionConfirmed':
        return state.status === 'absent' ? state : { ...state, status: 'confirmed' };
      case 'ActionExecuted':
        return state.status === 'absent' ? state : { ...state, status: 'executed' };
      case 'ActionAborted':
        return state.status === 'absent' ? state : { ...state, status: 'aborted' };
      case 'ActionFailed':
        return state.status === 'absent' ? state : { ...state, status: 'failed' };
      case 'ActionExpired':
        return state.status === 'absent' ? state : { ...state, status: 'expired' };
      default:
        return assertNever(event);
    }
  },
};
