import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/** Actions across channels, trace ids, the recall_actions tool and the activity feed, through HTTP. */
describe('operational memory through HTTP', () => {
  let t: TestApp;
  let telegram: string;
  let web: string;
  const base = '/v1/workspaces/w4/users/alice';

  beforeAll(async () => {
    t = await startTestApp();
    telegram = await t.token({ userId: 'telegram-bot', workspaceId: 'w4', roles: ['agent'] });
    web = await t.token({ userId: 'chat-web', workspaceId: 'w4', roles: ['agent'] });
  });
  afterAll(() => t.close());

  const propose = (body: Record<string, unknown>, token = telegram) =>
    request(t.http)
      .post(`${base}/actions`)
      .auth(token, { type: 'bearer' })
      .send({
        tool: 'gmail_send',
        target: 'delphine@acme.fr',
        summary: 'Relance facture Q2',
        channel: 'telegram',
        ...body,
      });
  const step = (actionId: string, verb: string, body: Record<string, unknown> = {}, token = web) =>
    request(t.http)
      .post(`${base}/actions/${actionId}/${verb}`)
      .auth(token, { type: 'bearer' })
      .send(body);

  async function events(actionId: string) {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const result = await client.query<{
        type: string;
        metadata: { traceId?: string; channel?: string };
      }>(`SELECT type, metadata FROM events WHERE stream_id = $1 ORDER BY stream_revision`, [
        `w4/alice/action/${actionId}`,
      ]);
      return result.rows;
    } finally {
      await client.end();
    }
  }

  it('proposes on Telegram, confirms and executes from the web chat, carrying the trace id end to end', async () => {
    const traceId = `trace-${randomUUID().slice(0, 8)}`;
    const proposed = await propose({ traceId }).expect(201);
    expect(proposed.body).toEqual({
      actionId: expect.any(String),
      traceId,
      status: 'pending',
      expiresAt: expect.any(String),
      position: expect.any(Number),
    });
    const { actionId } = proposed.body;
    expect((await step(actionId, 'confirm', { channel: 'web' }).expect(200)).body).toMatchObject({
      status: 'confirmed',
    });
    expect(
      (await step(actionId, 'execute', { channel: 'web', result: { id: 'm-1' } }).expect(200)).body,
    ).toMatchObject({
      status: 'executed',
    });
    const stored = await events(actionId);
    expect(stored.map((e) => e.type)).toEqual([
      'ActionProposed',
      'ActionConfirmed',
      'ActionExecuted',
    ]);
    expect(stored.every((e) => e.metadata.traceId === traceId)).toBe(true);
    expect(stored.map((e) => e.metadata.channel)).toEqual(['telegram', 'web', 'web']);
  });

  it('is idempotent on actionId and refuses other transitions with a 409 naming the status', async () => {
    const actionId = randomUUID();
    const first = await propose({ actionId }).expect(201);
    const retry = await propose({ actionId }).expect(201);
    expect(retry.body).toEqual(first.body);
    // Another proposal under the same id is not a retry (idempotency-conflict.e2e has the rest).
    const reused = await propose({ actionId, summary: 'changed' }).expect(409);
    expect(reused.body.message).toMatch(/^idempotency_conflict: /);
    expect(await events(actionId)).toHaveLength(1);
    const refused = await step(actionId, 'execute').expect(409);
    expect(refused.body.message).toBe('Cannot execute an action whose status is pending');
    await step(actionId, 'abort', { channel: 'email', reason: 'changed my mind' }).expect(200);
    expect((await step(actionId, 'fail', { error: 'x' }).expect(409)).body.message).toBe(
      'Cannot fail an action whose status is aborted',
    );
    await step(randomUUID(), 'confirm', { channel: 'web' }).expect(404);
  });

  it("does not let another user's actionId clash", async () => {
    const actionId = randomUUID();
    await propose({ actionId }).expect(201);
    const other = await request(t.http)
      .post('/v1/workspaces/w4/users/bob/actions')
      .auth(telegram, { type: 'bearer' })
      .send({ actionId, tool: 'gmail_send', summary: 'Autre', channel: 'web' })
      .expect(201);
    expect(other.body).toMatchObject({ actionId, status: 'pending' });
  });

  it('starts at confirmed without confirmation, and fails from confirmed', async () => {
    const direct = await propose({
      requiresConfirmation: false,
      tool: 'calendar_respond',
      target: 'evt_92ab7c',
    }).expect(201);
    expect(direct.body.status).toBe('confirmed');
    expect(direct.body.expiresAt).toBeUndefined();
    await step(direct.body.actionId, 'fail', { error: 'calendar unavailable' }).expect(200);
  });

  it.each([
    ['a missing tool', { tool: undefined }, /tool must be 1-128 characters/],
    ['an empty summary', { summary: '' }, /summary must be 1 to 2000 characters long/],
    ['input that is not an object', { input: 'x' }, /input must be a JSON object/],
    ['a ttl of 0', { ttlSeconds: 0 }, /ttlSeconds must be an integer from 1 to 604800/],
    [
      'requiresConfirmation as text',
      { requiresConfirmation: 'yes' },
      /requiresConfirmation must be true or false/,
    ],
    ['an actionId that is no UUID', { actionId: '42' }, /actionId must be a UUID/],
  ])('refuses a proposal with %s', async (_, body, message) => {
    const response = await propose(body).expect(400);
    expect(response.body.message).toMatch(message);
  });

  it('serves the recall_actions tool definition, and recalls read-only with filters', async () => {
    const definition = await request(t.http).get('/v1/tools/recall_actions').expect(200);
    expect(definition.body.function.name).toBe('recall_actions');
    expect(definition.body.function.parameters.properties.days).toMatchObject({ maximum: 90 });
    const recall = (body: Record<string, unknown>) =>
      request(t.http).post(`${base}/tools/recall_actions`).auth(web, { type: 'bearer' }).send(body);
    const found = await eventually(
      () => recall({ query: 'DELPHINE', status: 'executed' }),
      (r) => r.status === 200 && r.body.actions.length === 1,
    );
    expect(found.body.actions[0]).toMatchObject({
      tool: 'gmail_send',
      status: 'executed',
      requestedVia: 'telegram',
    });
    expect(found.body.text).toContain(
      'gmail_send → delphine@acme.fr « Relance facture Q2 » : exécutée',
    );
    const facture = await recall({ query: 'facturé' }).expect(200);
    expect(facture.body.actions.length).toBeGreaterThanOrEqual(1);
    const none = await recall({ query: 'zzz-nothing' }).expect(200);
    expect(none.body).toEqual({ actions: [], text: expect.any(String) });
    for (const [body, message] of [
      [{ days: 91 }, 'days must be an integer from 1 to 90'],
      [{ days: 0 }, 'days must be an integer from 1 to 90'],
      [{ status: 'done' }, 'status must be one of'],
    ] as const) {
      expect((await recall(body).expect(400)).body.message).toContain(message);
    }
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    const count = async () =>
      (
        await client.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM actions) AS n`,
        )
      ).rows[0]!.n;
    const before = await count();
    await recall({ query: 'delphine' }).expect(200);
    await recall({}).expect(200);
    expect(await count()).toBe(before);
    await client.end();
  });

  it("groups the user's activity by trace, newest first, with stable cursor pages", async () => {
    const alice = await t.token({ userId: 'alice', workspaceId: 'w4', roles: ['user'] });
    const traceId = 'trace-feed';
    await request(t.http)
      .post(`${base}/messages`)
      .auth(telegram, { type: 'bearer' })
      .send({
        sessionId: 's1',
        role: 'user',
        channel: 'telegram',
        text: 'Envoie la relance à Delphine',
        traceId,
      })
      .expect(202);
    const action = await propose({ traceId }).expect(201);
    await step(action.body.actionId, 'confirm', { channel: 'web' }).expect(200);
    const feed = await eventually(
      () => request(t.http).get('/v1/me/activity').auth(alice, { type: 'bearer' }),
      (r) => r.body.items?.[0]?.traceId === traceId && r.body.items[0].events.length === 3,
    );
    const [group] = feed.body.items;
    expect(group).toMatchObject({ traceId, channels: ['telegram', 'web'] });
    expect(group.events.map((e: { type: string }) => e.type)).toEqual([
      'MessageRecorded',
      'ActionProposed',
      'ActionConfirmed',
    ]);
    const page1 = await request(t.http)
      .get('/v1/me/activity?limit=2')
      .auth(alice, { type: 'bearer' })
      .expect(200);
    expect(page1.body.items).toHaveLength(2);
    await propose({ traceId: 'trace-newer' }).expect(201);
    const page2 = await request(t.http)
      .get(`/v1/me/activity?limit=2&cursor=${page1.body.nextCursor}`)
      .auth(alice, { type: 'bearer' })
      .expect(200);
    const titles = [...page1.body.items, ...page2.body.items].map(
      (g: { firstAt: string; title: string }) => g.firstAt + g.title,
    );
    expect(new Set(titles).size).toBe(titles.length);
    await request(t.http)
      .get('/v1/me/activity?cursor=abc')
      .auth(alice, { type: 'bearer' })
      .expect(400);
  });

  it("never shows another user's activity, even to an admin", async () => {
    const admin = await t.token({
      userId: 'root',
      workspaceId: 'w4',
      roles: ['admin', 'user', 'auditor'],
    });
    const feed = await request(t.http)
      .get('/v1/me/activity')
      .auth(admin, { type: 'bearer' })
      .expect(200);
    expect(feed.body.items).toEqual([]);
  });
});
