import { deciderSpec } from '../../../../test/support/decider-spec';
import { actionDecider, type ProposeAction } from './action-decider';
import type { ActionEvent, ActionProposed } from './action-events';

const spec = deciderSpec(actionDecider);
const data: ActionProposed['data'] = {
  actionId: 'a1',
  tool: 'gmail_send',
  target: 'delphine@acme.fr',
  summary: 'Relance facture Q2',
  channel: 'telegram',
  requiresConfirmation: true,
  expiresAt: '2026-06-08T16:50:00.000Z',
};
const propose: ProposeAction = { type: 'ProposeAction', data };
const proposed: ActionEvent = { type: 'ActionProposed', data };
const confirmed: ActionEvent = {
  type: 'ActionConfirmed',
  data: { actionId: 'a1', channel: 'web' },
};
const before = '2026-06-08T16:45:00.000Z';
const after = '2026-06-08T16:51:00.000Z';

describe('action decider', () => {
  it('proposes once: proposing the same action again decides nothing', () => {
    spec.given([]).when(propose).then([proposed]);
    spec.given([proposed]).when(propose).thenNothing();
    spec.given([proposed, confirmed]).when(propose).thenNothing();
    // A retry a moment later: its expiry, computed from the clock, moved on.
    spec
      .given([proposed])
      .when({ ...propose, data: { ...data, expiresAt: '2026-06-08T16:51:00.000Z' } })
      .thenNothing();
  });

  it.each([
    ['summary', { summary: 'Relance facture Q3' }],
    ['target', { target: undefined }],
    ['input', { input: { amount: 12 } }],
    ['channel', { channel: 'web' }],
    ['confirmation', { requiresConfirmation: false }],
  ])('refuses another proposal under the same id (other %s): idempotency conflict', (_, change) => {
    spec
      .given([proposed, confirmed])
      .when({ ...propose, data: { ...data, ...change } })
      .thenThrows('idempotency_conflict: actionId a1 was already used with a different request');
  });

  it('confirms from another channel than the one it was asked on, then executes', () => {
    spec
      .given([proposed])
      .when({ type: 'ConfirmAction', channel: 'web', now: before })
      .then([confirmed]);
    spec
      .given([proposed, confirmed])
      .when({ type: 'ExecuteAction', channel: 'web', result: { messageId: 'x' } })
      .then([
        {
          type: 'ActionExecuted',
          data: { actionId: 'a1', channel: 'web', result: { messageId: 'x' } },
        },
      ]);
  });

  it('starts confirmed when no confirmation is required', () => {
    const direct: ActionEvent = {
      type: 'ActionProposed',
      data: { ...data, requiresConfirmation: false },
    };
    spec
      .given([direct])
      .when({ type: 'ExecuteAction' })
      .then([{ type: 'ActionExecuted', data: { actionId: 'a1' } }]);
    spec
      .given([direct])
      .when({ type: 'ConfirmAction', channel: 'web', now: before })
      .thenThrows('Cannot confirm an action whose status is confirmed');
  });

  it('aborts a pending or confirmed action, fails a confirmed one', () => {
    const aborted = (reason: string): ActionEvent => ({
      type: 'ActionAborted',
      data: { actionId: 'a1', channel: 'email', reason },
    });
    spec
      .given([proposed])
      .when({ type: 'AbortAction', channel: 'email', reason: 'no' })
      .then([aborted('no')]);
    spec
      .given([proposed, confirmed])
      .when({ type: 'AbortAction', channel: 'email', reason: 'late' })
      .then([aborted('late')]);
    spec
      .given([proposed, confirmed])
      .when({ type: 'FailAction', error: 'SMTP 550' })
      .then([{ type: 'ActionFailed', data: { actionId: 'a1', error: 'SMTP 550' } }]);
  });

  it('refuses every other transition with the current status', () => {
    spec
      .given([proposed])
      .when({ type: 'ExecuteAction' })
      .thenThrows('Cannot execute an action whose status is pending');
    spec
      .given([proposed])
      .when({ type: 'FailAction', error: 'x' })
      .thenThrows('Cannot fail an action whose status is pending');
    const executed: ActionEvent = { type: 'ActionExecuted', data: { actionId: 'a1' } };
    spec
      .given([proposed, confirmed, executed])
      .when({ type: 'AbortAction' })
      .thenThrows('Cannot abort an action whose status is executed');
    spec
      .given([])
      .when({ type: 'ConfirmAction', channel: 'web', now: before })
      .thenThrows('Action not found');
  });

  it('expires a pending action once its time has passed, and only then', () => {
    const expired: ActionEvent = {
      type: 'ActionExpired',
      data: { actionId: 'a1', expiresAt: data.expiresAt! },
    };
    spec.given([proposed]).when({ type: 'ExpireAction', now: before }).thenNothing();
    spec.given([proposed]).when({ type: 'ExpireAction', now: after }).then([expired]);
    spec.given([proposed, expired]).when({ type: 'ExpireAction', now: after }).thenNothing();
    spec.given([proposed, confirmed]).when({ type: 'ExpireAction', now: after }).thenNothing();
    spec
      .given([proposed])
      .when({ type: 'ConfirmAction', channel: 'web', now: after })
      .thenThrows('Cannot confirm an action that expired at 2026-06-08T16:50:00.000Z');
  });
});
