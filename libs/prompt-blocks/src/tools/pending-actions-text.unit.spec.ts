import type { ActionView } from '../action-view';
import { renderPendingActions } from './pending-actions-text';

describe('renderPendingActions', () => {
  const options = { timeZone: 'Europe/Paris', locale: 'en' } as const;

  it('names each action by the id update_action takes, after its recall line', () => {
    const action = {
      actionId: '3f0c2b9e-1d2a-4c1b-9f3e-7a6b5c4d3e2f',
      traceId: 't1',
      tool: 'send_email',
      target: 'delphine@acme.fr',
      summary: 'Relance facture Q2',
      status: 'pending',
      requestedVia: 'telegram',
      steps: [],
      createdAt: '2026-12-01T10:00:00.000Z',
      expiresAt: '2026-12-02T10:00:00.000Z',
    } as unknown as ActionView;
    const text = renderPendingActions([action], options);
    expect(text).toContain('send_email');
    expect(text).toMatch(/\[actionId: 3f0c2b9e-1d2a-4c1b-9f3e-7a6b5c4d3e2f\]$/);
  });

  it('says when none waits', () => {
    expect(renderPendingActions([], options)).toBe('No action is waiting for confirmation.');
  });
});
