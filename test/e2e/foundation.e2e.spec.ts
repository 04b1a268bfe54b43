import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { SignJWT } from 'jose';
import { TEST_JWT_SECRET } from '../support/test-runtime';
import { countUserEvents, eventually, startTestApp, type TestApp } from '../support/test-app';

function signed(
  claims: Record<string, unknown>,
  expiresAt: string | number,
  secret = TEST_JWT_SECRET,
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('x')
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
}

describe('HTTP foundation: health, docs, auth, messages, own statistics', () => {
  let t: TestApp;
  let agent: string;
  beforeAll(async () => {
    t = await startTestApp();
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
  });
  afterAll(() => t.close());

  const message = (overrides: Record<string, unknown> = {}) => ({
    sessionId: 'sess-1',
    role: 'user',
    channel: 'telegram',
    text: 'Je préfère les réponses courtes.',
    ...overrides,
  });

  describe('operations', () => {
    it('serves /health with the event store and database checks, without a token', async () => {
      const response = await request(t.http).get('/health').expect(200);
      expect(response.body).toMatchObject({
        status: 'ok',
        info: { eventStore: { status: 'up', kind: 'postgres' }, database: { status: 'up' } },
      });
    });

    it('serves the OpenAPI document at /docs', async () => {
      const response = await request(t.http).get('/docs/openapi.json').expect(200);
      expect(response.body.paths).toHaveProperty('/v1/workspaces/{ws}/users/{userId}/messages');
      expect(response.body.components.securitySchemes).toHaveProperty('bearer');
    });
  });

  describe('authentication', () => {
    const path = '/v1/workspaces/w1/users/u1/messages';

    it('answers 401 without a token, with a malformed one, and with one signed by another key', async () => {
      const missing = await request(t.http).post(path).send(message()).expect(401);
      expect(missing.body).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: expect.stringMatching(/Missing bearer token/),
      });
      await request(t.http)
        .post(path)
        .set('authorization', 'Bearer nope')
        .send(message())
        .expect(401);
      const forged = await signed(
        { ws: 'w1', roles: ['agent'] },
        '1h',
        'another-secret-another-secret-another',
      );
      const bad = await request(t.http)
        .post(path)
        .auth(forged, { type: 'bearer' })
        .send(message())
        .expect(401);
      expect(bad.body.message).toBe(
        "Invalid token: its signature does not match this server's secret (npm run token signs with it)",
      );
    });

    it('answers 401 for an expired token and for claims that are not Engram claims', async () => {
      const expired = await signed(
        { ws: 'w1', roles: ['agent'] },
        Math.floor(Date.now() / 1000) - 60,
      );
      await request(t.http)
        .post(path)
        .auth(expired, { type: 'bearer' })
        .send(message())
        .expect(401);
      const noRoles = await signed({ ws: 'w1', roles: ['root'] }, '1h');
      const response = await request(t.http)
        .post(path)
        .auth(noRoles, { type: 'bearer' })
        .send(message())
        .expect(401);
      expect(response.body.message).toMatch(/unknown roles: root/);
    });

    it('answers 401 for a token that never expires or outlives ENGRAM_JWT_MAX_AGE (24 h)', async () => {
      const key = new TextEncoder().encode(TEST_JWT_SECRET);
      const claims = { ws: 'w1', roles: ['agent'], sub: 'chat-web' };
      const forever = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .sign(key);
      const noExp = await request(t.http)
        .post(path)
        .auth(forever, { type: 'bearer' })
        .send(message())
        .expect(401);
      expect(noExp.body.message).toMatch(/Invalid token: missing required "exp" claim/);
      const year = await signed(claims, '365d');
      const long = await request(t.http)
        .post(path)
        .auth(year, { type: 'bearer' })
        .send(message())
        .expect(401);
      expect(long.body.message).toMatch(/more than the 86400 s allowed/);
    });

    it('answers 403 for a wrong role and for another workspace', async () => {
      const user = await t.token({ userId: 'u1', workspaceId: 'w1', roles: ['user'] });
      const role = await request(t.http)
        .post(path)
        .auth(user, { type: 'bearer' })
        .send(message())
        .expect(403);
      expect(role.body.message).toMatch(/needs the role agent/);
      const other = await request(t.http)
        .post('/v1/workspaces/w2/users/u1/messages')
        .auth(agent, { type: 'bearer' })
        .send(message())
        .expect(403);
      expect(other.body.message).toMatch(/workspace w1, not w2/);
    });
  });

  describe('POST …/messages', () => {
    it('records a message: 202 with its id, a generated trace id and the position', async () => {
      const response = await request(t.http)
        .post('/v1/workspaces/w1/users/u1/messages')
        .auth(agent, { type: 'bearer' })
        .send(message())
        .expect(202);
      expect(response.body).toEqual({
        messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        traceId: expect.any(String),
        position: expect.any(Number),
      });
    });

    it('is idempotent on messageId: a retry returns the first result and writes nothing', async () => {
      const messageId = randomUUID();
      const body = message({ messageId, traceId: 'trace-1' });
      const first = await request(t.http)
        .post('/v1/workspaces/w1/users/u2/messages')
        .auth(agent, { type: 'bearer' })
        .send(body)
        .expect(202);
      const retries = await Promise.all(
        Array.from({ length: 5 }, () =>
          request(t.http)
            .post('/v1/workspaces/w1/users/u2/messages')
            .auth(agent, { type: 'bearer' })
            .send({ ...body, traceId: undefined }),
        ),
      );
      for (const retry of retries) {
        expect(retry.status).toBe(202);
        expect(retry.body).toEqual(first.body);
      }
      expect(first.body).toMatchObject({ messageId, traceId: 'trace-1' });
      const user = await t.token({ userId: 'u2', workspaceId: 'w1', roles: ['user'] });
      const stats = await eventually(
        () => request(t.http).get('/v1/me/stats').auth(user, { type: 'bearer' }),
        (r) => r.body.messageCount > 0,
      );
      expect(stats.body.messageCount).toBe(1);
    });

    it('lets two users use the same messageId without any clash', async () => {
      const messageId = randomUUID();
      for (const user of ['twin-a', 'twin-b']) {
        const response = await request(t.http)
          .post(`/v1/workspaces/w1/users/${user}/messages`)
          .auth(agent, { type: 'bearer' })
          .send(message({ messageId }))
          .expect(202);
        expect(response.body.messageId).toBe(messageId);
      }
      expect(await countUserEvents(t, 'w1', 'twin-b', 'MessageRecorded')).toBe(1);
    });

    it.each([
      ['a missing sessionId', { sessionId: undefined }, /sessionId must be 1-128 characters/],
      [
        'a sessionId with a space',
        { sessionId: 'has space' },
        /sessionId must be 1-128 characters/,
      ],
      ['an unknown role', { role: 'system' }, /role must be one of: user, assistant/],
      ['an empty text', { text: '' }, /text must be 1 to 32000 characters long/],
      [
        'a text of 32,001 chars',
        { text: 'x'.repeat(32_001) },
        /text must be 1 to 32000 characters long/,
      ],
      ['a text that is a number', { text: 42 }, /text must be a string/],
      ['a messageId that is no UUID', { messageId: 'not-a-uuid' }, /messageId must be a UUID/],
      [
        'an occurredAt that is no date',
        { occurredAt: 'yesterday' },
        /occurredAt must be an ISO-8601 date-time/,
      ],
      ['a channel of 129 chars', { channel: 'a'.repeat(129) }, /channel must be 1-128 characters/],
      ['an unknown field', { unexpected: true }, /property unexpected should not exist/],
    ])(
      'refuses %s with a 400 that names the field, and writes nothing',
      async (_, override, expected) => {
        const response = await request(t.http)
          .post('/v1/workspaces/w1/users/u3/messages')
          .auth(agent, { type: 'bearer' })
          .send(message(override))
          .expect(400);
        expect(response.body).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message: expect.stringMatching(expected),
        });
        expect(await countUserEvents(t, 'w1', 'u3')).toBe(0);
      },
    );

    it('refuses malformed JSON, bodies over the limit and invalid path identifiers with a 4xx', async () => {
      const malformed = await request(t.http)
        .post('/v1/workspaces/w1/users/u1/messages')
        .auth(agent, { type: 'bearer' })
        .set('content-type', 'application/json')
        .send('{"sessionId": ')
        .expect(400);
      expect(malformed.body.statusCode).toBe(400);
      await request(t.http)
        .post('/v1/workspaces/w1/users/u1/messages')
        .auth(agent, { type: 'bearer' })
        .send(message({ text: 'x'.repeat(300_000) }))
        .expect(413);
      const badUser = await request(t.http)
        .post(`/v1/workspaces/w1/users/${'u'.repeat(200)}/messages`)
        .auth(agent, { type: 'bearer' })
        .send(message())
        .expect(400);
      expect(badUser.body.message).toMatch(/path parameter userId/);
    });
  });

  describe('GET /v1/me/stats', () => {
    it("reads the caller's own projection row only, never another user's", async () => {
      for (const user of ['alice', 'bob', 'bob']) {
        await request(t.http)
          .post(`/v1/workspaces/w1/users/${user}/messages`)
          .auth(agent, { type: 'bearer' })
          .send(message())
          .expect(202);
      }
      const bob = await t.token({ userId: 'bob', workspaceId: 'w1', roles: ['user', 'admin'] });
      const alice = await t.token({ userId: 'alice', workspaceId: 'w1', roles: ['user'] });
      const bobStats = await eventually(
        () => request(t.http).get('/v1/me/stats').auth(bob, { type: 'bearer' }),
        (r) => r.body.messageCount === 2,
      );
      expect(bobStats.body).toMatchObject({ messageCount: 2 });
      const aliceStats = await eventually(
        () => request(t.http).get('/v1/me/stats').auth(alice, { type: 'bearer' }),
        (r) => r.body.messageCount === 1,
      );
      expect(aliceStats.body).toMatchObject({ messageCount: 1 });
    });
  });
});
