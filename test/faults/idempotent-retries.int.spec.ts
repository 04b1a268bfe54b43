import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

/** Clients retry (timeouts, lost answers) with the same ids, several copies at once. */
describe('client retries with the same ids under concurrency', () => {
  let t: TestApp;
  let agent: string;
  let owner: Client;

  beforeAll(async () => {
    t = await startTestApp();
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
    owner = new Client({ connectionString: t.database.ownerUrl });
    await owner.connect();
  });
  afterAll(async () => {
    await owner.end();
    await t.close();
  });

  const eventsOfType = async (type: string, field: string, id: string) =>
    Number(
      (
        await owner.query<{ count: string }>(
          `SELECT count(*) FROM events WHERE type = $1 AND data->>'${field}' = $2`,
          [type, id],
        )
      ).rows[0]!.count,
    );
  const eventsOfStream = async (suffix: string) =>
    (
      await owner.query<{ type: string }>(
        `SELECT type FROM events WHERE stream_id LIKE '%' || $1 ORDER BY global_position`,
        [suffix],
      )
    ).rows.map((row) => row.type);

  it('twenty copies of one message: all acknowledged, one event', async () => {
    const messageId = randomUUID();
    const body = { messageId, sessionId: 's1', role: 'user', channel: 'web', text: 'Bonjour' };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(t.http)
          .post('/v1/workspaces/w1/users/alice/messages')
          .auth(agent, { type: 'bearer' })
          .send(body),
      ),
    );
    expect(new Set(replies.map((reply) => reply.status))).toEqual(new Set([202]));
    expect(new Set(replies.map((reply) => reply.body.position)).size).toBe(1);
    expect(await eventsOfType('MessageRecorded', 'messageId', messageId)).toBe(1);
  });

  it('twenty copies of one proposal (all answered alike), then of its confirmation: one event each', async () => {
    const actionId = randomUUID();
    const proposal = { actionId, tool: 'send_email', summary: 'Relance', channel: 'web' };
    const proposed = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(t.http)
          .post('/v1/workspaces/w1/users/alice/actions')
          .auth(agent, { type: 'bearer' })
          .send(proposal),
      ),
    );
    expect(new Set(proposed.map((reply) => reply.status))).toEqual(new Set([201]));
    expect(new Set(proposed.map((reply) => reply.body.traceId)).size).toBe(1);

    const confirmed = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(t.http)
          .post(`/v1/workspaces/w1/users/alice/actions/${actionId}/confirm`)
          .auth(agent, { type: 'bearer' })
          .send({ channel: 'telegram' }),
      ),
    );
    // Transitions are not idempotency keys (API.md): the first copy confirms, the others find the
    // action confirmed and get a 409 that says so.
    expect(confirmed.filter((reply) => reply.status === 200)).toHaveLength(1);
    for (const reply of confirmed.filter((r) => r.status !== 200)) {
      expect(reply.status).toBe(409);
      expect(reply.body.message).toMatch(/confirmed/);
    }
    expect(await eventsOfStream(actionId)).toEqual(['ActionProposed', 'ActionConfirmed']);
  });
});
