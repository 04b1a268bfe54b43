import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/** Seed 002's review workflow, alongside seed 000's automatic memories, through HTTP. */
describe('memory review through HTTP', () => {
  let t: TestApp;
  let agent: string;
  let admin: string;
  let otherAdmin: string;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' });
    agent = await t.token({ userId: 'chat-web', workspaceId: 'w2', roles: ['agent'] });
    admin = await t.token({ userId: 'root', workspaceId: 'w2', roles: ['admin', 'user'] });
    otherAdmin = await t.token({ userId: 'root2', workspaceId: 'w2', roles: ['admin'] });
  });
  afterAll(() => t.close());

  const say = (user: string, text: string, agentId?: string) =>
    request(t.http)
      .post(`/v1/workspaces/w2/users/${user}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({
        messageId: randomUUID(),
        sessionId: 's1',
        role: 'user',
        channel: 'telegram',
        text,
        ...(agentId ? { agentId } : {}),
      })
      .expect(202);
  const setPolicy = (body: Record<string, unknown>, token = admin) =>
    request(t.http)
      .put('/v1/workspaces/w2/memory-policy')
      .auth(token, { type: 'bearer' })
      .send(body);
  const queue = (query = '') =>
    request(t.http)
      .get(`/v1/workspaces/w2/memories${query}`)
      .auth(admin, { type: 'bearer' })
      .expect(200);
  const myMemories = async (user: string, status = 'approved') => {
    const token = await t.token({ userId: user, workspaceId: 'w2', roles: ['user'] });
    return request(t.http)
      .get(`/v1/me/memories?status=${status}`)
      .auth(token, { type: 'bearer' })
      .expect(200);
  };

  describe('policy', () => {
    it('starts with seed 000 defaults and changes only what is given', async () => {
      const initial = await request(t.http)
        .get('/v1/workspaces/w2/memory-policy')
        .auth(admin, { type: 'bearer' })
        .expect(200);
      expect(initial.body).toEqual({
        reviewMode: 'auto',
        pendingTtlDays: 7,
        liveWindow: 20,
        summaryBatch: 10,
        userMemoryCap: 200,
        timeZone: 'Europe/Paris',
        locale: 'fr',
      });
      const changed = await setPolicy({ reviewMode: 'admin', autoApproveAbove: 0.95 }).expect(200);
      expect(changed.body).toMatchObject({
        reviewMode: 'admin',
        autoApproveAbove: 0.95,
        pendingTtlDays: 7,
      });
    });

    it.each([
      [{ reviewMode: 'maybe' }, 'reviewMode must be one of: auto, admin, user'],
      [{ autoApproveAbove: 1.5 }, 'autoApproveAbove must be a number from 0 to 1, or null'],
      [{ pendingTtlDays: 0 }, 'pendingTtlDays must be an integer from 1 to 365'],
      [{ pendingTtlDays: null }, 'pendingTtlDays must be an integer from 1 to 365'],
      [{ liveWindow: 2.5 }, 'liveWindow must be an integer from 1 to 200'],
      [{ userMemoryCap: 100000 }, 'userMemoryCap must be an integer from 1 to 10000'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone must be an IANA time zone'],
      [{ locale: 'de' }, 'locale must be one of: fr, en'],
      [{ extra: 1 }, 'property extra should not exist'],
    ])('refuses %j with a 400 naming the rule', async (body, message) => {
      const response = await setPolicy(body).expect(400);
      expect(response.body.message).toContain(message);
    });

    it('is for admins of the workspace only', async () => {
      const user = await t.token({ userId: 'u', workspaceId: 'w2', roles: ['user'] });
      await setPolicy({ reviewMode: 'auto' }, user).expect(403);
      const foreign = await t.token({ userId: 'a', workspaceId: 'w3', roles: ['admin'] });
      await setPolicy({ reviewMode: 'auto' }, foreign).expect(403);
    });
  });

  describe('reviewMode admin', () => {
    let candidateId: string;

    it('leaves candidates pending for the admins, with content, type, confidence, user, excerpt and age', async () => {
      await say('dave', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
      const listed = await eventually(
        () => queue(),
        (r) => r.body.items.length === 1,
      );
      const [item] = listed.body.items;
      expect(item).toMatchObject({
        userId: 'dave',
        kind: 'fact',
        status: 'pending',
        content: expect.stringContaining('StartupCorp'),
        confidence: expect.any(Number),
        sourceExcerpt: 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.',
        ageSeconds: expect.any(Number),
      });
      candidateId = item.memoryId;
      expect((await myMemories('dave')).body.items).toEqual([]);
      const pending = await myMemories('dave', 'pending');
      expect(pending.body.items.map((m: { memoryId: string }) => m.memoryId)).toEqual([
        candidateId,
      ]);
    });

    it('records exactly one decision when two admins decide at the same moment; the other gets 404', async () => {
      const [approve, reject] = await Promise.all([
        request(t.http)
          .post(`/v1/workspaces/w2/memories/${candidateId}/approve`)
          .auth(admin, { type: 'bearer' }),
        request(t.http)
          .post(`/v1/workspaces/w2/memories/${candidateId}/reject`)
          .auth(otherAdmin, { type: 'bearer' })
          .send({ reason: 'not durable' }),
      ]);
      const statuses = [approve.status, reject.status].sort();
      expect(statuses).toEqual([200, 404]);
      // Decided meanwhile, it left the queue: the loser is answered as for any id outside the queue.
      const loser = approve.status === 404 ? approve : reject;
      expect(loser.body.message).toBe("This memory is not in the workspace's review queue");
    });

    it('puts an approved memory in the user’s memories and identity card, and takes it off the queue', async () => {
      const decided = await eventually(
        () => myMemories('dave', 'approved'),
        (r) => r.body.items.length === 1,
        3000,
      );
      if (decided.body.items.length === 1) {
        expect(decided.body.items[0].decidedBy).toMatchObject({ kind: 'person', role: 'admin' });
        const dave = await t.token({ userId: 'dave', workspaceId: 'w2', roles: ['user'] });
        const card = await eventually(
          () => request(t.http).get('/v1/me/identity-card').auth(dave, { type: 'bearer' }),
          (r) => r.body.memoryCount === 1,
        );
        expect(card.body.markdown).toContain('StartupCorp');
      } else {
        const rejected = await myMemories('dave', 'rejected');
        expect(rejected.body.items[0]).toMatchObject({ rejectionReason: 'not durable' });
      }
      await eventually(
        () => queue(),
        (r) => r.body.items.length === 0,
      );
    });

    it('answers a second decision, like what it cannot see, with a 404', async () => {
      await request(t.http)
        .post(`/v1/workspaces/w2/memories/${candidateId}/approve`)
        .auth(admin, { type: 'bearer' })
        .expect(404);
      await request(t.http)
        .post(`/v1/workspaces/w2/memories/${randomUUID()}/approve`)
        .auth(admin, { type: 'bearer' })
        .expect(404);
      await request(t.http)
        .post('/v1/workspaces/w2/memories/nope/approve')
        .auth(admin, { type: 'bearer' })
        .expect(400);
    });

    it('approves at once (by policy) a candidate above autoApproveAbove', async () => {
      await say(
        'erin',
        'Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.',
      );
      await setPolicy({ autoApproveAbove: 0.5 }).expect(200);
      await say('erin', 'Je m’appelle Erin.');
      const approved = await eventually(
        () => myMemories('erin', 'approved'),
        (r) => r.body.items.length >= 1,
      );
      expect(approved.body.items[0].decidedBy).toEqual({ kind: 'policy' });
      await setPolicy({ autoApproveAbove: null }).expect(200);
    });

    it('filters and pages the queue with a cursor that stays stable while candidates arrive', async () => {
      for (const text of ['Je m’appelle Fanny.', 'J’habite à Lyon.', 'Je travaille chez Acme.'])
        await say('fanny', text);
      await eventually(
        () => queue('?userId=fanny'),
        (r) => r.body.items.length === 3,
      );
      const first = await queue('?userId=fanny&limit=2');
      expect(first.body.items).toHaveLength(2);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      await say('fanny', 'Je préfère le thé.');
      const second = await queue(`?userId=fanny&limit=2&cursor=${first.body.nextCursor}`);
      const seen = [...first.body.items, ...second.body.items].map(
        (m: { memoryId: string }) => m.memoryId,
      );
      expect(new Set(seen).size).toBe(seen.length);
      const facts = await queue('?userId=fanny&kind=fact');
      expect(facts.body.items.every((m: { kind: string }) => m.kind === 'fact')).toBe(true);
      const confident = await queue('?minConfidence=0.99');
      expect(confident.body.items.every((m: { confidence: number }) => m.confidence >= 0.99)).toBe(
        true,
      );
      const bad = await request(t.http)
        .get('/v1/workspaces/w2/memories?cursor=garbage')
        .auth(admin, { type: 'bearer' })
        .expect(400);
      expect(bad.body.message).toBe('cursor is not a cursor this API gave');
      const badStatus = await request(t.http)
        .get('/v1/workspaces/w2/memories?status=approved')
        .auth(admin, { type: 'bearer' })
        .expect(400);
      expect(badStatus.body.message).toMatch(/status must be pending or rejected/);
    });

    it('never analyses messages of an agent whose memory is disabled', async () => {
      await request(t.http)
        .put('/v1/workspaces/w2/agents/mail-bot/memory')
        .auth(admin, { type: 'bearer' })
        .send({ enabled: false })
        .expect(200);
      await say('gus', 'Je m’appelle Gus.', 'mail-bot');
      await say('gus', 'J’habite à Nantes.', 'chat-bot');
      const listed = await eventually(
        () => queue('?userId=gus'),
        (r) => r.body.items.length >= 1,
      );
      expect(listed.body.items.map((m: { content: string }) => m.content).join(' ')).not.toContain(
        'Gus',
      );
      const toggled = await request(t.http)
        .put('/v1/workspaces/w2/agents/mail-bot/memory')
        .auth(admin, { type: 'bearer' })
        .send({ enabled: 'no' })
        .expect(400);
      expect(toggled.body.message).toBe('enabled must be true or false');
    });
  });

  describe('reviewMode user and auto', () => {
    it('lets users review their own candidates in user mode, and hides the queue from admins', async () => {
      await setPolicy({ reviewMode: 'user' }).expect(200);
      await say('hana', 'Je m’appelle Hana.');
      const hana = await t.token({ userId: 'hana', workspaceId: 'w2', roles: ['user'] });
      const pending = await eventually(
        () => request(t.http).get('/v1/me/memories?status=pending').auth(hana, { type: 'bearer' }),
        (r) => r.body.items.length === 1,
      );
      expect((await queue('?userId=hana')).body.items).toEqual([]);
      // The list tells the console to offer approve and reject.
      expect(pending.body.canReview).toBe(true);
      const id = pending.body.items[0].memoryId;
      await request(t.http)
        .post(`/v1/me/memories/${id}/approve`)
        .auth(hana, { type: 'bearer' })
        .expect(200);
      const approved = await eventually(
        () => request(t.http).get('/v1/me/memories?status=approved').auth(hana, { type: 'bearer' }),
        (r) => r.body.items.length === 1,
      );
      expect(approved.body.items[0].decidedBy).toEqual({
        kind: 'person',
        userId: 'hana',
        role: 'user',
      });
    });

    it('approves at once in auto mode, shows admins nothing, and refuses user reviews', async () => {
      await setPolicy({ reviewMode: 'auto' }).expect(200);
      await say('ivan', 'Je m’appelle Ivan.');
      const approved = await eventually(
        () => myMemories('ivan', 'approved'),
        (r) => r.body.items.length === 1,
      );
      expect((await queue()).body.items).toEqual([]);
      expect(approved.body.canReview).toBe(false);
      const ivan = await t.token({ userId: 'ivan', workspaceId: 'w2', roles: ['user'] });
      const refused = await request(t.http)
        .post(`/v1/me/memories/${approved.body.items[0].memoryId}/reject`)
        .auth(ivan, { type: 'bearer' })
        .expect(403);
      expect(refused.body.message).toMatch(/only in reviewMode user; this workspace uses auto/);
    });
  });
});
