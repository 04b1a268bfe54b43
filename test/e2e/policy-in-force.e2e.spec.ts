import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const WS = 'wpol';
const ROUNDS = 8;

/**
 * Seed 002: once admins ask to review, what is extracted next waits for them. A process manager must
 * decide with the policy in force at the message it reacts to, whichever worker holds which partition
 * and whatever the load: the review mode is flipped right before each message, under background
 * traffic, with two workers sharing the partitions.
 */
describe('the policy in force decides the next message', () => {
  let first: TestApp;
  let second: TestApp;
  let agent: string;
  let admin: string;
  let stop = false;

  beforeAll(async () => {
    first = await startTestApp({ ENGRAM_LEASE_TTL_SECONDS: '1' });
    second = await startTestApp({ ENGRAM_LEASE_TTL_SECONDS: '1' }, { database: first.database });
    agent = await first.token({ userId: 'chat-web', workspaceId: WS, roles: ['agent'] });
    admin = await first.token({ userId: 'root', workspaceId: WS, roles: ['admin', 'user'] });
  });

  afterAll(async () => {
    stop = true;
    await second.app.close();
    await first.close();
  });

  const say = (t: TestApp, user: string, text: string) =>
    request(t.http)
      .post(`/v1/workspaces/${WS}/users/${user}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({ messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text })
      .expect(202);

  async function memoriesOf(user: string): Promise<{ content: string; status: string }[]> {
    const token = await first.token({ userId: user, workspaceId: WS, roles: ['user'] });
    const answer = await request(first.http)
      .get('/v1/me/memories')
      .auth(token, { type: 'bearer' })
      .expect(200);
    return (answer.body as { items: { content: string; status: string }[] }).items;
  }

  it('admin mode set just before a message keeps its candidate pending; auto approves it', async () => {
    // Background load on both API instances, from other users.
    const load = (async () => {
      for (let i = 0; !stop && i < 400; i += 1) {
        await say(i % 2 ? first : second, `load-${i % 13}`, `Je préfère le thé numéro ${i}.`);
      }
    })();
    const outcomes: { mode: string; status: string | undefined }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const mode = round % 2 === 0 ? 'admin' : 'auto';
      await request(first.http)
        .put(`/v1/workspaces/${WS}/memory-policy`)
        .auth(admin, { type: 'bearer' })
        .send({ reviewMode: mode })
        .expect(200);
      const user = `round-${round}`;
      await say(round % 2 ? second : first, user, `J'habite à Lyon depuis ${2000 + round}.`);
      const memories = await eventually(
        () => memoriesOf(user),
        (items) => items.length > 0,
        20_000,
      );
      outcomes.push({ mode, status: memories[0]?.status });
    }
    stop = true;
    await load;
    expect(outcomes).toEqual(
      outcomes.map(({ mode }) => ({ mode, status: mode === 'admin' ? 'pending' : 'approved' })),
    );
  }, 120_000);
});
