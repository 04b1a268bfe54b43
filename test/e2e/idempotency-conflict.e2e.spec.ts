import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { countUserEvents, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 15: `messageId` and `actionId` are idempotency keys. The same request again is answered with
 * the first result; another request under the same key is a 409 `idempotency_conflict` (as payment
 * APIs answer a reused idempotency key), never silently the first result.
 */
describe('idempotency keys reused with another request', () => {
  let t: TestApp;
  let agent: string;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_RUN_WORKER: '0' });
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
  });
  afterAll(() => t.close());

  const message = (user: string, body: Record<string, unknown>) =>
    request(t.http)
      .post(`/v1/workspaces/w1/users/${user}/messages`)
      .auth(agent, { type: 'bearer' })
      .send(body);
  const propose = (user: string, body: Record<string, unknown>) =>
    request(t.http)
      .post(`/v1/workspaces/w1/users/${user}/actions`)
      .auth(agent, { type: 'bearer' })
      .send(body);
  const conflict = (key: string, id: string) => ({
    statusCode: 409,
    error: 'Conflict',
    message: `idempotency_conflict: ${key} ${id} was already used with a different request`,
  });

  it('answers a message retried as it was with the first result, and another one with a 409', async () => {
    const messageId = randomUUID();
    const body = { messageId, sessionId: 's1', role: 'user', channel: 'web', text: 'Bonjour' };
    const first = await message('ana', body).expect(202);
    // The same body, its keys in another order and with another trace: a retry.
    const { text, ...rest } = body;
    const retried = await message('ana', { text, ...rest, traceId: 'other' }).expect(202);
    expect(retried.body).toEqual(first.body);
    for (const change of [{ text: 'Bonsoir' }, { sessionId: 's2' }, { role: 'assistant' }]) {
      const refused = await message('ana', { ...body, ...change }).expect(409);
      expect(refused.body).toEqual(conflict('messageId', messageId));
    }
    expect(await countUserEvents(t, 'w1', 'ana')).toBe(1);
  });

  it('answers a proposal retried as it was with the first result, and another one with a 409', async () => {
    const actionId = randomUUID();
    const body = {
      actionId,
      tool: 'send_email',
      target: 'delphine@acme.fr',
      summary: 'Relance',
      input: { to: ['delphine@acme.fr'], urgent: true },
      channel: 'web',
    };
    const first = await propose('ben', body).expect(201);
    const retried = await propose('ben', {
      ...body,
      input: { urgent: true, to: ['delphine@acme.fr'] },
    }).expect(201);
    expect(retried.body).toEqual(first.body);
    for (const change of [
      { summary: 'Relance urgente' },
      { target: 'autre@acme.fr' },
      { input: { to: ['delphine@acme.fr'], urgent: false } },
      { requiresConfirmation: false },
    ]) {
      const refused = await propose('ben', { ...body, ...change }).expect(409);
      expect(refused.body).toEqual(conflict('actionId', actionId));
    }
    expect(await countUserEvents(t, 'w1', 'ben')).toBe(1);
  });

  it('under concurrency, answers every copy of the body stored 202 and every copy of the other 409', async () => {
    const messageId = randomUUID();
    const body = (text: string) => ({
      messageId,
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      text,
    });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        message('cleo', body(i % 2 ? 'Oui' : 'Non')).then((reply) => ({ i, reply })),
      ),
    );
    const stored = replies.find(({ reply }) => reply.status === 202)!;
    const storedText = stored.i % 2 ? 'Oui' : 'Non';
    for (const { i, reply } of replies) {
      if ((i % 2 ? 'Oui' : 'Non') === storedText) {
        expect(reply.status).toBe(202);
        expect(reply.body).toEqual(stored.reply.body);
      } else {
        expect({ status: reply.status, body: reply.body as unknown }).toEqual({
          status: 409,
          body: conflict('messageId', messageId),
        });
      }
    }
    expect(await countUserEvents(t, 'w1', 'cleo')).toBe(1);
  });

  it('says so in the OpenAPI document of both endpoints', async () => {
    const document = await request(t.http).get('/docs/openapi.json').expect(200);
    const paths = document.body.paths as Record<
      string,
      { post: { responses: Record<string, { description: string }> } }
    >;
    for (const path of [
      '/v1/workspaces/{ws}/users/{userId}/messages',
      '/v1/workspaces/{ws}/users/{userId}/actions',
    ]) {
      expect(paths[path]!.post.responses['409']!.description).toContain('idempotency_conflict');
    }
  });
});
