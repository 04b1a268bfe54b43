import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import {
  actionAborted,
  actionConfirmed,
  actionExecuted,
  actionExpired,
  actionFailed,
  actionProposed,
  memoriesWiped,
} from '../../test/support/events';
import { actionsProjection } from './actions.projection';
import {
  MAX_RECENT_ACTIONS,
  findAction,
  findExpiredPendingActions,
  findRecentActions,
  recallActions,
} from './actions.query';

const at = (position: number) => new Date(defaultOccurredAt(position));
const iso = (position: number) => defaultOccurredAt(position);

describe('actions projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(actionsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given ActionProposed needing confirmation, then a pending action with its first step', async () => {
    const rows = await spec.given([
      actionProposed('a1', {
        input: { to: 'delphine@acme.fr', subject: 'Facture Q2 — relance' },
        expiresAt: '2026-06-02T00:00:00.000Z',
      }),
    ]);
    expect(rows).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        action_id: 'a1',
        trace_id: 'trace-a1',
        tool: 'gmail_send',
        target: 'delphine@acme.fr',
        summary: 'Relance facture Q2',
        input: { to: 'delphine@acme.fr', subject: 'Facture Q2 — relance' },
        status: 'pending',
        requested_via: 'telegram',
        requires_confirmation: true,
        steps: [{ status: 'pending', channel: 'telegram', at: iso(1) }],
        expires_at: new Date('2026-06-02T00:00:00.000Z'),
        created_at: at(1),
        updated_at: at(1),
        executed_at: null,
        result: null,
        error: null,
        abort_reason: null,
        search_text:
          'gmail send delphine acme fr relance facture q2 to delphine acme fr subject facture q2 relance',
        position: '1',
      },
    ]);
  });

  it('given an action that needs no confirmation, then it starts confirmed; optional fields are null', async () => {
    const rows = await spec.given([
      {
        type: 'ActionProposed',
        data: {
          actionId: 'a1',
          tool: 'calendar_create',
          summary: 'Réunion équipe',
          channel: 'web',
          requiresConfirmation: false,
        },
      },
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        trace_id: null,
        target: null,
        input: null,
        expires_at: null,
        status: 'confirmed',
        requires_confirmation: false,
        steps: [{ status: 'confirmed', channel: 'web', at: iso(1) }],
        search_text: 'calendar create reunion equipe',
      }),
    ]);
  });

  it('given confirmed then executed, then each step with its channel and the result', async () => {
    const rows = await spec.given([
      actionProposed('a1'),
      actionConfirmed('a1', 'web'),
      actionExecuted('a1', { result: { messageId: 'gm-1' } }, { channel: 'worker' }),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        status: 'executed',
        steps: [
          { status: 'pending', channel: 'telegram', at: iso(1) },
          { status: 'confirmed', channel: 'web', at: iso(2) },
          // No channel in the data: the request's (metadata).
          { status: 'executed', channel: 'worker', at: iso(3) },
        ],
        executed_at: at(3),
        updated_at: at(3),
        created_at: at(1),
        result: { messageId: 'gm-1' },
        position: '3',
      }),
    ]);
  });

  it('given executed on a channel of its own, then that channel; none at all gives null', async () => {
    const rows = await spec.given([
      actionProposed('a1'),
      actionConfirmed('a1'),
      actionExecuted('a1', { channel: 'telegram' }, { channel: 'web' }),
      actionProposed('a2'),
      actionConfirmed('a2'),
      actionExecuted('a2'),
    ]);
    expect(rows.map((row) => (row.steps as { channel: string | null }[])[2]?.channel)).toEqual([
      'telegram',
      null,
    ]);
    expect(rows[1]).toMatchObject({ status: 'executed', result: null, executed_at: at(6) });
  });

  it('given aborted, failed and expired, then the status, the reason or error, and the step', async () => {
    const rows = await spec.given([
      actionProposed('a1'),
      actionAborted('a1', { channel: 'web', reason: 'Plus besoin' }),
      actionProposed('a2'),
      actionConfirmed('a2'),
      actionFailed('a2', 'SMTP 550'),
      actionProposed('a3', { expiresAt: iso(7) }),
      actionExpired('a3', iso(7)),
      actionProposed('a4'),
      actionAborted('a4'),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        action_id: 'a1',
        status: 'aborted',
        abort_reason: 'Plus besoin',
        steps: [
          { status: 'pending', channel: 'telegram', at: iso(1) },
          { status: 'aborted', channel: 'web', at: iso(2) },
        ],
      }),
      expect.objectContaining({
        action_id: 'a2',
        status: 'failed',
        error: 'SMTP 550',
        executed_at: null,
        steps: [
          { status: 'pending', channel: 'telegram', at: iso(3) },
          { status: 'confirmed', channel: 'web', at: iso(4) },
          { status: 'failed', channel: null, at: iso(5) },
        ],
      }),
      expect.objectContaining({
        action_id: 'a3',
        status: 'expired',
        updated_at: at(7),
        steps: [
          { status: 'pending', channel: 'telegram', at: iso(6) },
          { status: 'expired', channel: null, at: iso(7) },
        ],
      }),
      expect.objectContaining({ action_id: 'a4', status: 'aborted', abort_reason: null }),
    ]);
  });

  it('ignores a second proposal of a known action and events about an unknown one', async () => {
    const rows = await spec.given([
      actionProposed('a1'),
      actionProposed('a1', { summary: 'Autre chose' }),
      actionConfirmed('ghost'),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ action_id: 'a1', summary: 'Relance facture Q2', position: '1' }),
    ]);
  });

  it('gives the same rows one event per batch as all in one batch, and keeps actions on a wipe', async () => {
    const events = [
      actionProposed('a1'),
      actionConfirmed('a1'),
      actionExecuted('a1', { result: { ok: true } }),
      actionProposed('a2', {}, { owner: BOB }),
      memoriesWiped(1),
      actionAborted('a2', { reason: 'non' }, { owner: BOB }),
    ];
    const together = await spec.given(events);
    expect(await spec.given(events, { batchSize: 1 })).toEqual(together);
    expect(together).toHaveLength(2);
  });

  describe('queries', () => {
    // created_at per action: a1 oldest … a6 newest; bob has b1.
    beforeAll(async () => {
      await spec.given([
        actionProposed('a1', {
          tool: 'gmail_send',
          target: 'Delphine@Acme.fr',
          summary: 'Relance facture Q2',
        }),
        actionProposed('a2', {
          tool: 'calendar_create',
          target: 'Équipe produit',
          summary: 'Réunion de rétrospective',
          requiresConfirmation: false,
        }),
        actionProposed('a3', {
          tool: 'drive_share',
          target: 'bruno@acme.fr',
          summary: 'Partager le budget',
          input: { file: 'Budget_2026.xlsx', note: 'Prévisions été' },
          expiresAt: '2026-06-01T01:00:00.000Z',
        }),
        actionProposed('a4', { summary: '100%_sûr', expiresAt: '2026-06-01T00:30:00.000Z' }),
        actionProposed('a5', { expiresAt: '2026-06-01T00:10:00.000Z' }),
        actionAborted('a5', { reason: 'no' }),
        actionProposed('a6', { tool: 'slack_post', target: '#général', summary: 'Annonce' }),
        actionProposed('b1', { summary: 'Relance facture Q2' }, { owner: BOB }),
      ]);
    });

    const ids = (rows: readonly { actionId: string }[]) => rows.map((row) => row.actionId);

    it('findRecentActions: the last `limit`, newest first', async () => {
      const recent = await spec.asUser(ALICE, (m) =>
        findRecentActions(m, 'w1', 'alice', { limit: 3 }),
      );
      expect(ids(recent)).toEqual(['a6', 'a5', 'a4']);
      expect(recent[0]).toMatchObject({
        tool: 'slack_post',
        createdAt: at(7),
        steps: [{ status: 'pending', channel: 'telegram', at: iso(7) }],
      });
      expect(
        await spec.asUser(ALICE, (m) => findRecentActions(m, 'w1', 'alice', { limit: 0 })),
      ).toEqual([]);
    });

    it('findRecentActions with since: those created since then or the last `limit`, whichever is more', async () => {
      const recent = (limit: number, since: Date) =>
        spec.asUser(ALICE, (m) => findRecentActions(m, 'w1', 'alice', { limit, since })).then(ids);
      // Since position 3: a3…a6 (4) beats the last 2.
      expect(await recent(2, at(3))).toEqual(['a6', 'a5', 'a4', 'a3']);
      // The last 5 beat the 1 created since position 7.
      expect(await recent(5, at(7))).toEqual(['a6', 'a5', 'a4', 'a3', 'a2']);
      // Nothing since then: the last `limit`.
      expect(await recent(1, at(100))).toEqual(['a6']);
      expect(await recent(0, at(0))).toEqual(['a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
    });

    it(`findRecentActions never returns more than ${MAX_RECENT_ACTIONS}`, async () => {
      const many = Array.from({ length: MAX_RECENT_ACTIONS + 5 }, (_, index) =>
        actionProposed(
          `m${String(index).padStart(3, '0')}`,
          {},
          { owner: { workspaceId: 'w2', userId: 'carol' } },
        ),
      );
      await spec.when(many);
      const carol = { workspaceId: 'w2', userId: 'carol' };
      const all = await spec.asUser(carol, (m) =>
        findRecentActions(m, 'w2', 'carol', { limit: 10, since: new Date(0) }),
      );
      expect(all).toHaveLength(MAX_RECENT_ACTIONS);
      expect(all[0]?.actionId).toBe('m054');
      expect(
        await spec.asUser(carol, (m) => findRecentActions(m, 'w2', 'carol', { limit: 500 })),
      ).toHaveLength(MAX_RECENT_ACTIONS);
    });

    it('recallActions: accent-, case- and punctuation-insensitive over tool, target, summary and input', async () => {
      const recall = (query: string) =>
        spec
          .asUser(ALICE, (m) =>
            recallActions(m, 'w1', 'alice', { query, since: new Date(0), limit: 10 }),
          )
          .then(ids);
      expect(await recall('GMAIL_SEND')).toEqual(['a5', 'a4', 'a1']);
      expect(await recall('delphine@ACME.FR')).toEqual(['a5', 'a4', 'a1']);
      expect(await recall('equipe')).toEqual(['a2']);
      expect(await recall('RETROSPECTIVE')).toEqual(['a2']);
      expect(await recall('prévisions ÉTÉ')).toEqual(['a3']);
      expect(await recall('budget 2026')).toEqual(['a3']);
      expect(await recall('Général')).toEqual(['a6']);
      expect(await recall('100%')).toEqual(['a4']);
      expect(await recall('nothing like it')).toEqual([]);
      // Only punctuation: no filter.
      expect(await recall('?!')).toHaveLength(6);
    });

    it('recallActions: % and _ in a query are punctuation, not wildcards', async () => {
      const recall = (query: string) =>
        spec
          .asUser(ALICE, (m) =>
            recallActions(m, 'w1', 'alice', { query, since: new Date(0), limit: 10 }),
          )
          .then(ids);
      expect(await recall('facture%q2')).toEqual(['a5', 'a1']);
      expect(await recall('f_cture')).toEqual([]);
      expect(await recall('%')).toHaveLength(6);
    });

    it('recallActions: status, since and limit', async () => {
      const recall = (filter: { query?: string; status?: string; since: Date; limit: number }) =>
        spec.asUser(ALICE, (m) => recallActions(m, 'w1', 'alice', filter)).then(ids);
      expect(await recall({ status: 'confirmed', since: new Date(0), limit: 10 })).toEqual(['a2']);
      expect(await recall({ status: 'aborted', since: new Date(0), limit: 10 })).toEqual(['a5']);
      expect(
        await recall({ query: 'gmail', status: 'pending', since: new Date(0), limit: 10 }),
      ).toEqual(['a4', 'a1']);
      expect(await recall({ since: at(4), limit: 10 })).toEqual(['a6', 'a5', 'a4']);
      expect(await recall({ since: new Date(0), limit: 2 })).toEqual(['a6', 'a5']);
      expect(await recall({ since: new Date(0), limit: 0 })).toEqual([]);
    });

    it("RLS: a user never sees another user's actions, whatever they ask", async () => {
      expect(
        await spec.asUser(BOB, (m) => findRecentActions(m, 'w1', 'alice', { limit: 10 })),
      ).toEqual([]);
      expect(
        await spec.asUser(BOB, (m) =>
          recallActions(m, 'w1', 'alice', { since: new Date(0), limit: 10 }),
        ),
      ).toEqual([]);
      expect(await spec.asUser(BOB, (m) => findAction(m, 'w1', 'alice', 'a1'))).toBeNull();
      expect(
        ids(
          await spec.asUser(BOB, (m) =>
            recallActions(m, 'w1', 'bob', { query: 'facture', since: new Date(0), limit: 10 }),
          ),
        ),
      ).toEqual(['b1']);
    });

    it('findAction: one action of the caller, or null', async () => {
      expect(await spec.asUser(ALICE, (m) => findAction(m, 'w1', 'alice', 'a3'))).toMatchObject({
        actionId: 'a3',
        traceId: 'trace-a3',
        tool: 'drive_share',
        input: { file: 'Budget_2026.xlsx', note: 'Prévisions été' },
        status: 'pending',
        requestedVia: 'telegram',
        requiresConfirmation: true,
        expiresAt: new Date('2026-06-01T01:00:00.000Z'),
        position: '3',
      });
      expect(await spec.asUser(ALICE, (m) => findAction(m, 'w1', 'alice', 'nope'))).toBeNull();
    });

    it('findExpiredPendingActions: pending actions due by now, oldest expiry first, every user (projector)', async () => {
      const due = (now: string, limit = 10) =>
        findExpiredPendingActions(spec.projector.manager, new Date(now), limit);
      // a5 expired earliest but was aborted: not pending.
      expect(await due('2026-06-01T00:29:59.000Z')).toEqual([]);
      expect(await due('2026-06-01T00:30:00.000Z')).toEqual([
        { workspaceId: 'w1', userId: 'alice', actionId: 'a4' },
      ]);
      expect(await due('2026-06-02T00:00:00.000Z')).toEqual([
        { workspaceId: 'w1', userId: 'alice', actionId: 'a4' },
        { workspaceId: 'w1', userId: 'alice', actionId: 'a3' },
      ]);
      expect(await due('2026-06-02T00:00:00.000Z', 1)).toHaveLength(1);
      // The API role outside runAs sees nothing.
      expect(
        await spec.app.transaction((m) =>
          findExpiredPendingActions(m, new Date('2026-06-02T00:00:00.000Z'), 10),
        ),
      ).toEqual([]);
    });
  });
});
