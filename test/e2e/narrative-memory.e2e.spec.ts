import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/** The narrative memory end to end with the offline extractor and summarizer (the embedded default). */
describe('narrative memory through HTTP', () => {
  let t: TestApp;
  let agent: string;
  let alice: string;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' });
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
    alice = await t.token({ userId: 'alice', workspaceId: 'w1', roles: ['user'] });
  });
  afterAll(() => t.close());

  const say = (
    text: string,
    role: 'user' | 'assistant' = 'user',
    sessionId = 's1',
    user = 'alice',
  ) =>
    request(t.http)
      .post(`/v1/workspaces/w1/users/${user}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({ messageId: randomUUID(), sessionId, role, channel: 'web', text })
      .expect(202);

  const memories = (token = alice) =>
    request(t.http).get('/v1/me/memories').auth(token, { type: 'bearer' }).expect(200);

  async function storedEvents(
    type: string,
    user = 'alice',
  ): Promise<{ data: Record<string, unknown> }[]> {
    const client = new Client({ connectionString: t.database.ownerUrl });
    await client.connect();
    try {
      const result = await client.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM events WHERE type = $1 AND owner_user_id = $2 ORDER BY global_position`,
        [type, user],
      );
      return result.rows;
    } finally {
      await client.end();
    }
  }

  it('extracts memories from human messages, approves them (reviewMode auto) and deduplicates', async () => {
    await say('Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.');
    await say('Très bien, je noterai cela.', 'assistant');
    await say('Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    const listed = await eventually(
      () => memories(),
      (r) => r.body.items.length >= 2,
    );
    const kinds = listed.body.items.map((m: { kind: string }) => m.kind).sort();
    expect(kinds).toEqual(['fact', 'preference']);
    for (const memory of listed.body.items) {
      expect(memory).toMatchObject({
        status: 'approved',
        seenCount: 1,
        decidedBy: { kind: 'policy' },
      });
    }
    await say('Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code !');
    const reinforced = await eventually(
      () => memories(),
      (r) => r.body.items.some((m: { seenCount: number }) => m.seenCount === 2),
    );
    expect(reinforced.body.items).toHaveLength(2);
    expect(
      reinforced.body.items.find((m: { kind: string }) => m.kind === 'preference').seenCount,
    ).toBe(2);
  });

  it('never analyses assistant messages', async () => {
    await say('Je préfère le thé au café.', 'assistant', 's-assistant', 'bob');
    const bob = await t.token({ userId: 'bob', workspaceId: 'w1', roles: ['user'] });
    await say('Merci beaucoup !', 'user', 's-assistant', 'bob');
    await eventually(
      () => request(t.http).get('/v1/me/sessions/s-assistant').auth(bob, { type: 'bearer' }),
      (r) => r.status === 200 && r.body.messageCount === 2,
    );
    expect((await memories(bob)).body.items).toEqual([]);
  });

  it('regenerates the identity card from the approved memories', async () => {
    const card = await eventually(
      () => request(t.http).get('/v1/me/identity-card').auth(alice, { type: 'bearer' }),
      (r) => r.body.memoryCount === 2,
    );
    expect(card.body.markdown).toContain('Python');
    expect(card.body.markdown).toContain('StartupCorp');
  });

  it('keeps a live window of the last 20 messages and summarizes the rest in batches of 10', async () => {
    for (let i = 1; i <= 45; i += 1) {
      await say(`Message numéro ${i} de la session longue.`, i % 2 ? 'user' : 'assistant', 'long');
    }
    const session = await eventually(
      () => request(t.http).get('/v1/me/sessions/long').auth(alice, { type: 'bearer' }),
      (r) =>
        r.status === 200 && r.body.messageCount === 45 && 45 - 20 - r.body.summarizedCount < 10,
    );
    expect(session.body.messageCount).toBe(45);
    expect(session.body.liveWindow).toHaveLength(20);
    expect(session.body.liveWindow[0].text).toBe('Message numéro 26 de la session longue.');
    expect(session.body.liveWindow[19].text).toBe('Message numéro 45 de la session longue.');
    expect(session.body.rollingSummary).toContain('numéro 1 ');
    // 25 messages left the window: two batches of at least 10 each (a batch takes every message that
    // left the window when the summarizer ran, so under load it may hold 11); fewer than 10 wait.
    const summaries = (await storedEvents('RollingSummaryExtended')).filter(
      (e) => e.data.sessionId === 'long',
    );
    expect(summaries).toHaveLength(2);
    let covered = 0;
    for (const { data } of summaries) {
      expect(data.messageCount).toBeGreaterThanOrEqual(10);
      covered += data.messageCount as number;
      expect(data.summarizedCount).toBe(covered);
    }
    expect(session.body.summarizedCount).toBe(covered);
  });

  it('stops extracting when memory is off or paused, and says so', async () => {
    const carol = await t.token({ userId: 'carol', workspaceId: 'w1', roles: ['user'] });
    const off = await request(t.http)
      .put('/v1/me/memory-settings')
      .auth(carol, { type: 'bearer' })
      .send({ enabled: false })
      .expect(200);
    expect(off.body).toMatchObject({ enabled: false, pausedUntil: null, status: 'disabled' });
    await say('Je m’appelle Carol et j’habite à Lyon.', 'user', 's1', 'carol');
    const paused = await request(t.http)
      .put('/v1/me/memory-settings')
      .auth(carol, { type: 'bearer' })
      .send({ enabled: true, pausedUntil: '2999-01-01T00:00:00Z' })
      .expect(200);
    expect(paused.body).toMatchObject({ enabled: true, status: 'paused' });
    await say('Je travaille chez Acme.', 'user', 's1', 'carol');
    await eventually(
      () => request(t.http).get('/v1/me/sessions/s1').auth(carol, { type: 'bearer' }),
      (r) => r.status === 200 && r.body.messageCount === 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await memories(carol)).body.items).toEqual([]);
    const read = await request(t.http)
      .get('/v1/me/memory-settings')
      .auth(carol, { type: 'bearer' })
      .expect(200);
    expect(read.body.status).toBe('paused');
  });

  it('validates the settings body', async () => {
    const response = await request(t.http)
      .put('/v1/me/memory-settings')
      .auth(alice, { type: 'bearer' })
      .send({ enabled: 'yes', pausedUntil: 'tomorrow' })
      .expect(400);
    expect(response.body.message).toMatch(/enabled must be true or false/);
    expect(response.body.message).toMatch(/pausedUntil must be an ISO-8601 date-time or null/);
  });

  it('deletes one memory, refuses to delete it twice, and 404s an unknown one', async () => {
    const { body } = await memories();
    const preference = body.items.find((m: { kind: string }) => m.kind === 'preference');
    const deleted = await request(t.http)
      .delete(`/v1/me/memories/${preference.memoryId}`)
      .auth(alice, { type: 'bearer' })
      .expect(200);
    expect(deleted.body).toEqual({ status: 'deleted', position: expect.any(Number) });
    const again = await request(t.http)
      .delete(`/v1/me/memories/${preference.memoryId}`)
      .auth(alice, { type: 'bearer' })
      .expect(409);
    expect(again.body.message).toBe('Cannot delete a memory whose status is deleted');
    await request(t.http)
      .delete(`/v1/me/memories/${randomUUID()}`)
      .auth(alice, { type: 'bearer' })
      .expect(404);
    await request(t.http)
      .delete('/v1/me/memories/not-a-uuid')
      .auth(alice, { type: 'bearer' })
      .expect(400);
    const left = await eventually(
      () => memories(),
      (r) => r.body.items.length === 1,
    );
    expect(left.body.items[0].kind).toBe('fact');
  });

  it('wipes every memory and resets the identity card, keeping the history', async () => {
    const wiped = await request(t.http)
      .post('/v1/me/memories/wipe')
      .auth(alice, { type: 'bearer' })
      .expect(200);
    expect(wiped.body).toEqual({ generation: 1, position: expect.any(Number) });
    await eventually(
      () => memories(),
      (r) => r.body.items.length === 0,
    );
    const card = await eventually(
      () => request(t.http).get('/v1/me/identity-card').auth(alice, { type: 'bearer' }),
      (r) => r.body.memoryCount === 0,
    );
    expect(card.body.markdown).not.toContain('Python');
    const session = await request(t.http)
      .get('/v1/me/sessions/s1')
      .auth(alice, { type: 'bearer' })
      .expect(200);
    expect(session.body.messageCount).toBe(4);
    // Said again after the wipe, it is a new memory of the new generation.
    await say('Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.');
    const after = await eventually(
      () => memories(),
      (r) => r.body.items.length === 1,
    );
    expect(after.body.items[0]).toMatchObject({ kind: 'preference', seenCount: 1 });
  });
});
