import request from 'supertest';
import { eventually, postUserMessage, startTestApp, type TestApp } from '../support/test-app';
import { asText, ndjsonLines } from '../support/ndjson-body';

type Item = {
  memoryId: string;
  content: string;
  status: string;
  reason?: string;
  ageSeconds?: number;
};

/**
 * Seed 002: "Les mémoires en attente expirées sont automatiquement rejetées". The expiry stays its own
 * event; the API reports the candidate as rejected, reason expired, wherever it shows one.
 */
describe('expired candidates, reported as rejected', () => {
  let t: TestApp;
  let agent: string;
  let admin: string;
  let auditor: string;
  let erin: string;
  const ws = 'w8';
  const DAY = 24 * 3600 * 1000;

  beforeAll(async () => {
    // The expiry scheduler runs every second here (30 s by default).
    t = await startTestApp({ ENGRAM_SCHEDULER_INTERVAL_SECONDS: '1' });
    agent = await t.token({ userId: 'chat-web', workspaceId: ws, roles: ['agent'] });
    admin = await t.token({ userId: 'root', workspaceId: ws, roles: ['admin'] });
    auditor = await t.token({ userId: 'dpo', workspaceId: ws, roles: ['auditor'] });
    erin = await t.token({ userId: 'erin', workspaceId: ws, roles: ['user'] });
    await request(t.http)
      .put(`/v1/workspaces/${ws}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send({ reviewMode: 'admin', pendingTtlDays: 2 })
      .expect(200);
  });
  afterAll(() => t.close());

  const say = (text: string, occurredAt: Date) =>
    postUserMessage(t, agent, { workspaceId: ws, userId: 'erin' }, text, {
      occurredAt: occurredAt.toISOString(),
    });
  const queue = (status: string, minPosition = 0) =>
    request(t.http)
      .get(`/v1/workspaces/${ws}/memories?status=${status}&minPosition=${minPosition}`)
      .auth(admin, { type: 'bearer' })
      .expect(200);
  const mine = (status: string) =>
    request(t.http)
      .get(`/v1/me/memories?status=${status}`)
      .auth(erin, { type: 'bearer' })
      .expect(200);
  const items = (response: request.Response) => response.body.items as Item[];
  const about = (list: Item[], word: string) => list.find((item) => item.content.includes(word));

  let expiredId: string;

  it('rejects a candidate left pending past pendingTtlDays, reason expired, in the queue and for its user', async () => {
    // Three days old with a two-day TTL: due at once. The others are recent.
    await say('Je suis CTO chez StartupCorp.', new Date(Date.now() - 3 * DAY));
    await say('Je préfère le thé vert.', new Date());
    await say('J’habite à Lyon.', new Date());
    // The old candidate may still be pending for a moment, until the scheduler's next pass.
    const pending = await eventually(
      () => queue('pending'),
      (response) => ['thé', 'Lyon'].every((word) => about(items(response), word)),
    );
    const lyon = about(items(pending), 'Lyon')!;
    const rejection = await request(t.http)
      .post(`/v1/workspaces/${ws}/memories/${lyon.memoryId}/reject`)
      .auth(admin, { type: 'bearer' })
      .send({ reason: 'not durable' })
      .expect(200);
    // Read-your-writes: the queue read below shows the admin's rejection (its projection may lag).
    const rejectedAt = (rejection.body as { position: number }).position;

    const rejected = await eventually(
      () => queue('rejected'),
      (response) => items(response).length === 1,
    );
    expect(items(rejected)).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'expired' }),
    ]);
    expiredId = items(rejected)[0]!.memoryId;
    expect(about(items(rejected), 'StartupCorp')).toBeDefined();
    // Earlier clients' filter still answers, with the same items; what an admin rejected left the queue.
    // (Their age is counted at each answer: two answers a second apart differ in it alone.)
    const ageless = (list: Item[]) => list.map(({ ageSeconds: _age, ...item }) => item);
    expect(ageless(items(await queue('expired')))).toEqual(ageless(items(rejected)));
    expect(items(await queue('pending', rejectedAt)).map((item) => item.memoryId)).toEqual([
      about(items(pending), 'thé')!.memoryId,
    ]);

    const own = await eventually(
      () => mine('rejected'),
      (response) => items(response).length === 2,
    );
    expect(about(items(own), 'StartupCorp')).toMatchObject({
      status: 'rejected',
      reason: 'expired',
      rejectionReason: 'expired',
      decidedBy: { kind: 'expiry' },
    });
    expect(about(items(own), 'Lyon')).toMatchObject({ status: 'rejected', reason: 'not durable' });
    expect(items(await mine('expired')).map((item) => item.memoryId)).toEqual([expiredId]);
    const all = [...items(await mine('pending')), ...items(await mine('approved'))];
    expect(all.map((item) => item.status)).toEqual(['pending']);
  });

  it('says rejected (expired) in the as-of view and its history; the export keeps the MemoryExpired event', async () => {
    const asOf = await request(t.http)
      .get(
        `/v1/workspaces/${ws}/users/erin/memories/as-of/${encodeURIComponent(new Date().toISOString())}`,
      )
      .auth(auditor, { type: 'bearer' })
      .expect(200);
    const memory = (asOf.body.items as (Item & { history: { event: string }[] })[]).find(
      (item) => item.memoryId === expiredId,
    )!;
    expect(memory).toMatchObject({ status: 'rejected', reason: 'expired' });
    expect(memory.history.at(-1)).toMatchObject({
      event: 'rejected',
      by: { kind: 'expiry' },
      reason: 'expired',
    });

    const exported = await request(t.http)
      .get(`/v1/workspaces/${ws}/users/erin/export`)
      .auth(auditor, { type: 'bearer' })
      .buffer(true)
      .parse(asText)
      .expect(200);
    const lines = ndjsonLines<{ type: string; data: { memoryId?: string } }>(
      exported.body as string,
    );
    expect(lines.filter((line) => line.type === 'MemoryExpired')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ memoryId: expiredId }) }),
    ]);
  });

  it('documents the statuses in OpenAPI: reported ones in answers, expired kept as a filter', async () => {
    const document = await request(t.http).get('/docs/openapi.json').expect(200);
    const { schemas } = document.body.components;
    expect(schemas.MemoryResponse.properties.status.enum).toEqual([
      'pending',
      'approved',
      'rejected',
      'deleted',
      'evicted',
      'superseded',
    ]);
    expect(schemas.MemoryResponse.properties.reason).toBeDefined();
    expect(schemas.MemoryAsOfResponse.properties.status.enum).not.toContain('expired');
    const parameters = document.body.paths['/v1/me/memories'].get.parameters as {
      name: string;
      schema: { enum?: string[] };
    }[];
    expect(parameters.find((p) => p.name === 'status')!.schema.enum).toContain('expired');
  });
});
