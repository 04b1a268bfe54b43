import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { ExportLine } from '@engram/gdpr';
import { asText, ndjsonLines } from '../support/ndjson-body';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/** Issue 20 through HTTP (offline extractor): a move supersedes the older city, kept as history. */
describe('a contradiction supersedes the older memory through HTTP', () => {
  let t: TestApp;
  let agent: string;
  let alice: string;
  let auditor: string;
  const ws = 'w20';

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' });
    agent = await t.token({ userId: 'chat-web', workspaceId: ws, roles: ['agent'] });
    alice = await t.token({ userId: 'alice', workspaceId: ws, roles: ['user'] });
    auditor = await t.token({ userId: 'dpo', workspaceId: ws, roles: ['auditor'] });
  });
  afterAll(() => t.close());

  const say = (text: string) =>
    request(t.http)
      .post(`/v1/workspaces/${ws}/users/alice/messages`)
      .auth(agent, { type: 'bearer' })
      .send({ messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text })
      .expect(202);
  const myMemories = (query = '') =>
    request(t.http).get(`/v1/me/memories${query}`).auth(alice, { type: 'bearer' }).expect(200);

  it('the context shows only the current city; the export keeps both memories and MemorySuperseded', async () => {
    await say("J'habite à Lyon");
    const lyon = await eventually(
      () => myMemories(),
      (r) => r.body.items.length === 1 && r.body.items[0].status === 'approved',
    );
    const lyonId = lyon.body.items[0].memoryId as string;

    const moved = await say("J'ai déménagé de Lyon à Paris");
    const superseded = await eventually(
      () => myMemories('?status=superseded'),
      (r) => r.body.items.length === 1,
    );
    const current = (await myMemories()).body.items;
    expect(current).toEqual([
      expect.objectContaining({ status: 'approved', content: expect.stringMatching(/Paris/) }),
    ]);
    const parisId = current[0].memoryId as string;
    expect(current[0].supersedes).toBe(lyonId);
    expect(superseded.body.items[0]).toMatchObject({
      memoryId: lyonId,
      status: 'superseded',
      supersededBy: parisId,
      content: expect.stringMatching(/Lyon/),
    });

    // The card is regenerated after the supersession (debounce 0): wait until it says Paris and no
    // longer Lyon (an empty card, not generated yet under load, says neither).
    const context = await eventually(
      () =>
        request(t.http)
          .get(
            `/v1/workspaces/${ws}/users/alice/context?sessionId=s1&minPosition=${moved.body.position}`,
          )
          .auth(agent, { type: 'bearer' }),
      (r) =>
        r.status === 200 &&
        !String(r.body.identityCard).includes('habite à Lyon') &&
        /Paris/.test(String(r.body.identityCard)),
    );
    const facts = (context.body.memories.byType.fact ?? []) as { content: string }[];
    expect(facts.map((fact) => fact.content)).toEqual([expect.stringMatching(/Paris/)]);
    // The conversation still quotes the first message; the memories and the card no longer hold it.
    expect(context.body.systemPrompt).not.toMatch(/L'utilisateur habite à Lyon/);
    expect(context.body.identityCard).toMatch(/Paris/);

    const exported = await request(t.http)
      .get(`/v1/workspaces/${ws}/users/alice/export`)
      .auth(auditor, { type: 'bearer' })
      .buffer(true)
      .parse(asText)
      .expect(200);
    const lines = ndjsonLines<ExportLine>(exported.body as string);
    const detected = lines.filter((line) => line.type === 'MemoryCandidateDetected');
    expect(detected.map((line) => line.data.memoryId)).toEqual([lyonId, parisId]);
    expect(lines.filter((line) => line.type === 'MemorySuperseded').map((l) => l.data)).toEqual([
      { memoryId: lyonId, supersededBy: parisId },
    ]);

    // As of now, the as-of view tells the same history.
    const asOf = await request(t.http)
      .get(
        `/v1/workspaces/${ws}/users/alice/memories/as-of/${encodeURIComponent(new Date().toISOString())}`,
      )
      .auth(auditor, { type: 'bearer' })
      .expect(200);
    expect(asOf.body.items.map((m: { status: string }) => m.status)).toEqual([
      'superseded',
      'approved',
    ]);
  });
});
