import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { fixedClock } from '@engram/domain';
import {
  countUserEvents,
  eventually,
  settledUserEvents,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/**
 * The LLM ledger through HTTP, against a real PostgreSQL, with the offline engine (every call is
 * recorded, `offline-rules`). Time is the app's injected clock: 10:00 in Paris on 1 June, moved to the
 * next day for the deferred work. The tests share one history and run in order.
 */
describe('LLM usage per user, the workspace view and the daily budget', () => {
  const clock = fixedClock('2026-06-01T08:00:00.000Z');
  let t: TestApp;
  let agent: string;
  let alice: string;
  let bob: string;
  let admin: string;
  let otherAdmin: string;

  beforeAll(async () => {
    // The deferred-work job every 0.2 s, so that it runs as soon as the clock says the day has come.
    t = await startTestApp({ ENGRAM_SCHEDULER_INTERVAL_SECONDS: '0.2' }, { clock });
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
    alice = await t.token({ userId: 'alice', workspaceId: 'w1', roles: ['user'] });
    bob = await t.token({ userId: 'bob', workspaceId: 'w1', roles: ['user'] });
    admin = await t.token({ userId: 'root', workspaceId: 'w1', roles: ['user', 'admin'] });
    otherAdmin = await t.token({ userId: 'root', workspaceId: 'w2', roles: ['admin'] });
  });
  afterAll(() => t.close());

  const say = async (user: string, text: string, role: 'user' | 'assistant' = 'user') => {
    const messageId = randomUUID();
    await request(t.http)
      .post(`/v1/workspaces/w1/users/${user}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({ messageId, sessionId: 's1', role, channel: 'web', text })
      .expect(202);
    return messageId;
  };
  const myUsage = (token: string, query = '') =>
    request(t.http).get(`/v1/me/llm-usage${query}`).auth(token, { type: 'bearer' });
  const workspaceUsage = (token: string, query = '', ws = 'w1') =>
    request(t.http).get(`/v1/workspaces/${ws}/llm-usage${query}`).auth(token, { type: 'bearer' });
  type UsageItem = Readonly<{ purpose: string; day: string; calls: number; deferred: number }>;
  const extraction = (items: UsageItem[], day = '2026-06-01') =>
    items.find((item) => item.purpose === 'extraction' && item.day === day);

  async function policyEvents(): Promise<number> {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const result = await client.query<{ count: string }>(
        `SELECT count(*) FROM events WHERE type = 'MemoryPolicyChanged'`,
      );
      return Number(result.rows[0]!.count);
    } finally {
      await client.end();
    }
  }

  it("records each human message's extraction in its user's ledger, by day and purpose", async () => {
    await say('alice', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    await say('alice', 'Très bien, je noterai cela.', 'assistant');
    await say('alice', 'Je préfère les réponses courtes.');
    await say('bob', 'Je suis designer à Lyon.');
    const mine = await eventually(
      () => myUsage(alice),
      (r) => extraction(r.body.items)?.calls === 2,
    );
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      days: 30,
      from: '2026-05-03',
      timeZone: 'Europe/Paris',
      budget: null,
      deferred: [],
    });
    expect(extraction(mine.body.items)).toEqual({
      day: '2026-06-01',
      purpose: 'extraction',
      calls: 2,
      failures: 0,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: expect.any(Number),
      deferred: 0,
      engines: ['offline-rules'],
    });
    // One day only: the window is today.
    expect((await myUsage(alice, '?days=1').expect(200)).body.from).toBe('2026-06-01');
    // Bob sees his own call, never alice's.
    const his = await eventually(
      () => myUsage(bob),
      (r) => extraction(r.body.items)?.calls === 1,
    );
    expect(his.body.items.every((item: { calls: number }) => item.calls <= 1)).toBe(true);
  });

  it("gives the workspace's admins per-user totals by purpose, paginated, and nobody else", async () => {
    const all = await workspaceUsage(admin).expect(200);
    expect(all.body).toMatchObject({ days: 30, from: '2026-05-03', nextCursor: null });
    expect(all.body.items.map((item: { userId: string }) => item.userId)).toEqual(['alice', 'bob']);
    const [aliceTotals, bobTotals] = all.body.items;
    expect(aliceTotals.byPurpose.extraction).toMatchObject({ calls: 2, failures: 0 });
    expect(aliceTotals.byPurpose.summary).toEqual({
      calls: 0,
      failures: 0,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 0,
      deferred: 0,
      engines: [],
    });
    expect(bobTotals).toMatchObject({ userId: 'bob', byPurpose: { extraction: { calls: 1 } } });
    expect(all.body.totals.byPurpose.extraction.calls).toBe(3);
    // Counts and model names only: no text of anyone's.
    expect(JSON.stringify(all.body)).not.toMatch(/StartupCorp|designer|courtes/);

    const first = await workspaceUsage(admin, '?limit=1').expect(200);
    expect(first.body.items.map((item: { userId: string }) => item.userId)).toEqual(['alice']);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await workspaceUsage(
      admin,
      `?limit=1&cursor=${first.body.nextCursor as string}`,
    ).expect(200);
    expect(second.body.items.map((item: { userId: string }) => item.userId)).toEqual(['bob']);
    expect(second.body.nextCursor).toBeNull();

    // A user of the workspace: 403, whatever they ask; an admin of another workspace: 403 on w1,
    // and nothing of w1 in their own.
    for (const token of [alice, bob]) {
      const refused = await workspaceUsage(token).expect(403);
      expect(refused.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    await workspaceUsage(otherAdmin).expect(403);
    expect((await workspaceUsage(otherAdmin, '', 'w2').expect(200)).body.items).toEqual([]);
    await request(t.http).get('/v1/workspaces/w1/llm-usage').expect(401);
  });

  it('answers bad input with a 400 naming the rule, and writes nothing', async () => {
    // Alice's identity card and its ledger record may still be on their way from the messages above.
    const before = await settledUserEvents(t, 'w1', 'alice');
    for (const days of ['0', '91', 'abc', '1.5', '-3']) {
      const refused = await myUsage(alice, `?days=${days}`).expect(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(JSON.stringify(refused.body.message)).toContain(
        'days must be an integer from 1 to 90',
      );
      await workspaceUsage(admin, `?days=${days}`).expect(400);
    }
    await myUsage(alice, '?day=3').expect(400);
    await workspaceUsage(admin, '?limit=0').expect(400);
    const badCursor = await workspaceUsage(admin, '?cursor=%2F%2F%2F').expect(400);
    expect(badCursor.body.message).toBe('cursor is not a cursor this API gave');
    expect(await countUserEvents(t, 'w1', 'alice')).toBe(before);

    const policies = await policyEvents();
    for (const value of [0, -1, 1.5, '2', true, 1_000_001]) {
      const refused = await request(t.http)
        .put('/v1/workspaces/w1/memory-policy')
        .auth(admin, { type: 'bearer' })
        .send({ llmCallsPerUserPerDay: value })
        .expect(400);
      expect(JSON.stringify(refused.body.message)).toContain(
        'llmCallsPerUserPerDay must be an integer from 1 to 1000000, or null',
      );
    }
    expect(await policyEvents()).toBe(policies);
  });

  it('past the budget, the extraction waits until tomorrow, visibly; the next day it runs', async () => {
    const policy = await request(t.http)
      .put('/v1/workspaces/w1/memory-policy')
      .auth(admin, { type: 'bearer' })
      .send({ llmCallsPerUserPerDay: 2 })
      .expect(200);
    expect(policy.body.llmCallsPerUserPerDay).toBe(2);
    await say('carol', 'Je suis infirmière à Nantes.');
    await say('carol', 'Je préfère le thé.');
    const third = await say('carol', 'Je travaille de nuit.');
    const carol = await t.token({ userId: 'carol', workspaceId: 'w1', roles: ['user'] });

    // The deferral list and the ledger are two read models, applied apart: wait for both.
    const held = await eventually(
      () => myUsage(carol),
      (r) => r.body.deferred?.length === 1 && extraction(r.body.items)?.deferred === 1,
    );
    expect(held.body.deferred).toEqual([
      {
        purpose: 'extraction',
        cause: `message/${third}`,
        deferredAt: '2026-06-01T08:00:00.000Z',
        until: '2026-06-01T22:00:00.000Z',
      },
    ]);
    expect(held.body.budget).toEqual({
      limit: 2,
      usedToday: 2,
      resetsAt: '2026-06-01T22:00:00.000Z',
    });
    expect(extraction(held.body.items)).toMatchObject({ calls: 2, deferred: 1 });
    // And in carol's activity feed, in her language, beside the message it is about.
    const feed = await eventually(
      () => request(t.http).get('/v1/me/activity?locale=fr').auth(carol, { type: 'bearer' }),
      (r) => JSON.stringify(r.body).includes('suspendue'),
    );
    const lines = feed.body.items.flatMap((group: { events: { summary: string }[] }) =>
      group.events.map((event) => event.summary),
    );
    expect(lines).toContain(
      "Analyse du message suspendue jusqu'au 02/06/2026 00:00 (quota quotidien atteint)",
    );
    // Still held a second before midnight in Paris.
    clock.set('2026-06-01T21:59:59.000Z');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await myUsage(carol).expect(200)).body.deferred).toHaveLength(1);

    clock.set('2026-06-01T22:00:01.000Z');
    const resumed = await eventually(
      () => myUsage(carol),
      (r) => r.body.deferred?.length === 0 && extraction(r.body.items, '2026-06-02') !== undefined,
    );
    expect(extraction(resumed.body.items, '2026-06-02')).toMatchObject({ calls: 1, deferred: 0 });
    expect(extraction(resumed.body.items)).toMatchObject({ calls: 2, deferred: 1 });
    expect(resumed.body.budget).toEqual({
      limit: 2,
      usedToday: 1,
      resetsAt: '2026-06-02T22:00:00.000Z',
    });
    // The message held back was analysed: its memory is there.
    const memories = await eventually(
      () => request(t.http).get('/v1/me/memories').auth(carol, { type: 'bearer' }),
      (r) => r.body.items?.some((m: { sourceMessageId: string }) => m.sourceMessageId === third),
    );
    expect(
      memories.body.items.some((m: { sourceMessageId: string }) => m.sourceMessageId === third),
    ).toBe(true);
  });
});
