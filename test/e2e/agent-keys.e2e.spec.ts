import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const WS = 'wk';
const LIMIT = 5;

/** Issue 19: service keys for agents, created by admins, sent as `Authorization: Bearer <key>`. */
describe('service keys of agents, through HTTP', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_KEY_RATE_LIMIT: String(LIMIT) });
    admin = await t.token({ userId: 'root', workspaceId: WS, roles: ['admin'] });
  });
  afterAll(() => t.close());

  const keys = (agentId: string) => `/v1/workspaces/${WS}/agents/${agentId}/keys`;
  const create = (agentId: string, body: object = {}) =>
    request(t.http).post(keys(agentId)).auth(admin, { type: 'bearer' }).send(body);
  const list = (agentId: string) =>
    request(t.http).get(keys(agentId)).auth(admin, { type: 'bearer' });
  const revoke = (agentId: string, keyId: string) =>
    request(t.http)
      .delete(`${keys(agentId)}/${keyId}`)
      .auth(admin, { type: 'bearer' });
  const say = (key: string, workspaceId = WS) =>
    request(t.http)
      .post(`/v1/workspaces/${workspaceId}/users/alice/messages`)
      .auth(key, { type: 'bearer' })
      .send({ messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text: 'Hi' });
  const context = (key: string) =>
    request(t.http)
      .get(`/v1/workspaces/${WS}/users/alice/context`)
      .query({ sessionId: 's1' })
      .auth(key, { type: 'bearer' });

  /** Events of the workspace's key streams (a refused request must not add any; uses are logged apart). */
  async function workspaceEvents(): Promise<number> {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const result = await client.query<{ count: string }>(
        `SELECT count(*) FROM events WHERE stream_id LIKE $1`,
        [`${WS}/~/agent-key/%`],
      );
      return Number(result.rows[0]!.count);
    } finally {
      await client.end();
    }
  }

  it('creates a key (201, its id and secret once), which then acts as the agent in its workspace only', async () => {
    const created = await create('chat-web', { name: 'production' }).expect(201);
    expect(Object.keys(created.body).sort()).toEqual(['id', 'key']);
    const { id, key } = created.body as { id: string; key: string };
    expect(key).toMatch(new RegExp(`^egk_${id}_[A-Za-z0-9_-]{43}$`));

    expect((await say(key).expect(202)).body).toMatchObject({ messageId: expect.any(String) });
    await context(key).expect(200);

    const elsewhere = await say(key, 'other-ws').expect(403);
    expect(elsewhere.body.message).toBe('The token is for workspace wk, not other-ws');
    const adminRoute = await request(t.http)
      .get(`/v1/workspaces/${WS}/agents`)
      .auth(key, { type: 'bearer' })
      .expect(403);
    expect(adminRoute.body.message).toBe('This endpoint needs the role admin');
    await request(t.http).get(keys('chat-web')).auth(key, { type: 'bearer' }).expect(403);
  });

  it('lists the keys without their secret, with the last use once used', async () => {
    const { id, key } = (await create('mail-bot').expect(201)).body as { id: string; key: string };
    const before = await list('mail-bot').expect(200);
    expect(before.body.items).toEqual([
      {
        id,
        agentId: 'mail-bot',
        name: null,
        createdAt: expect.any(String),
        createdBy: 'root',
        lastUsedAt: null,
        revokedAt: null,
        revokedBy: null,
      },
    ]);
    expect(JSON.stringify(before.body)).not.toContain(key.slice(-43));

    await context(key).expect(200);
    const after = await eventually(
      () => list('mail-bot').expect(200),
      (response) => response.body.items[0]?.lastUsedAt !== null,
    );
    expect(Date.parse(after.body.items[0].lastUsedAt)).toBeGreaterThanOrEqual(
      Date.parse(after.body.items[0].createdAt),
    );
    // Another agent's list does not hold it.
    expect((await list('chat-web').expect(200)).body.items).not.toContainEqual(
      expect.objectContaining({ id }),
    );
  });

  it('revokes a key (204, again 204): refused at once with 401; an unknown key or another agent is 404', async () => {
    const { id, key } = (await create('cron').expect(201)).body as { id: string; key: string };
    await context(key).expect(200);
    await revoke('cron', id).expect(204);
    const refused = await context(key).expect(401);
    expect(refused.body).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: expect.stringMatching(/^Invalid service key: this key was revoked/),
    });
    await revoke('cron', id).expect(204);
    const listed = await list('cron').expect(200);
    expect(listed.body.items[0]).toMatchObject({
      id,
      revokedAt: expect.any(String),
      revokedBy: 'root',
    });

    expect((await revoke('cron', randomUUID()).expect(404)).body.message).toMatch(/has no key/);
    const { id: other } = (await create('chat-web').expect(201)).body as { id: string };
    await revoke('cron', other).expect(404);
  });

  it('refuses unknown, forged and malformed keys with 401, never saying whether an id exists', async () => {
    const { id } = (await create('forged').expect(201)).body as { id: string };
    const secret = 'A'.repeat(43);
    const unknown = await context(`egk_${randomUUID()}_${secret}`).expect(401);
    const wrongSecret = await context(`egk_${id}_${secret}`).expect(401);
    expect(unknown.body.message).toMatch(/^Invalid service key: unknown key/);
    expect(wrongSecret.body.message).toBe(unknown.body.message);
    const malformed = await context('egk_nope').expect(401);
    expect(malformed.body.message).toMatch(/^Invalid service key: malformed key/);
  });

  it('is for admins: a user or an agent gets 403, and nothing is written', async () => {
    const before = await workspaceEvents();
    for (const roles of [['user'], ['agent']] as const) {
      const token = await t.token({ userId: 'eve', workspaceId: WS, roles: [...roles] });
      await request(t.http)
        .post(keys('chat-web'))
        .auth(token, { type: 'bearer' })
        .send({})
        .expect(403);
      await request(t.http).get(keys('chat-web')).auth(token, { type: 'bearer' }).expect(403);
      await request(t.http)
        .delete(`${keys('chat-web')}/${randomUUID()}`)
        .auth(token, { type: 'bearer' })
        .expect(403);
    }
    const otherAdmin = await t.token({ userId: 'root', workspaceId: 'w2', roles: ['admin'] });
    await request(t.http)
      .post(keys('chat-web'))
      .auth(otherAdmin, { type: 'bearer' })
      .send({})
      .expect(403);
    expect(await workspaceEvents()).toBe(before);
  });

  it('answers bad input with 400 naming the rule, and writes nothing', async () => {
    const before = await workspaceEvents();
    const cases: [string, object, RegExp][] = [
      [keys('chat-web'), { name: '' }, /name must be a text of 1 to 100 characters/],
      [keys('chat-web'), { name: '   ' }, /name must be a text of 1 to 100 characters/],
      [keys('chat-web'), { name: 'x'.repeat(101) }, /name must be a text of 1 to 100/],
      [keys('chat-web'), { name: 42 }, /name must be a text/],
      [keys('chat-web'), { secret: 'mine' }, /property secret should not exist/],
      [keys('bad agent!'), {}, /path parameter agentId must be/],
    ];
    for (const [path, body, message] of cases) {
      const response = await request(t.http)
        .post(path)
        .auth(admin, { type: 'bearer' })
        .send(body)
        .expect(400);
      expect(response.body.message).toMatch(message);
    }
    await request(t.http)
      .delete(`${keys('chat-web')}/not a key id`)
      .auth(admin, { type: 'bearer' })
      .expect(400);
    expect(await workspaceEvents()).toBe(before);
  });

  it(`limits each key to ${LIMIT} requests a minute: 429 with Retry-After; other keys and JWT callers go on`, async () => {
    const { key } = (await create('busy').expect(201)).body as { key: string };
    for (let i = 0; i < LIMIT; i++) await context(key).expect(200);
    const limited = await context(key).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(
        /made 5 requests in the last minute, its limit; retry in \d+ s/,
      ),
    });
    // Counted across routes: a message is refused too.
    await say(key).expect(429);

    const { key: calm } = (await create('busy').expect(201)).body as { key: string };
    await context(calm).expect(200);
    const jwt = await t.token({ userId: 'gateway', workspaceId: WS, roles: ['agent'] });
    for (let i = 0; i < LIMIT + 2; i++) await context(jwt).expect(200);
  });

  it('documents the three operations in OpenAPI with their responses', async () => {
    const document = (await request(t.http).get('/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const collection = document.paths['/v1/workspaces/{ws}/agents/{agentId}/keys']!;
    expect(collection.post!.responses['201']!.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/CreatedAgentKeyResponse' } },
    });
    expect(collection.get!.responses['200']!.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/AgentKeyListResponse' } },
    });
    const single = document.paths['/v1/workspaces/{ws}/agents/{agentId}/keys/{keyId}']!;
    expect(single.delete!.responses['204']).toBeDefined();
  });
});
