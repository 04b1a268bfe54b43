import { Client } from 'pg';
import request from 'supertest';
import { spawnEngram, type EngramProcess } from '../support/engram-process';
import { eventually, postUserMessage, startTestApp, type TestApp } from '../support/test-app';

const WORKER_ENV = { ENGRAM_LEASE_TTL_SECONDS: '1' };

/**
 * ENGRAM_WORKER_ROLE with real worker processes: a projections worker alone projects what an owner
 * reads back, extracts nothing and says that nobody runs the process managers; a process-managers
 * worker started beside it takes every other partition, and the extraction follows.
 */
describe('workers by role (ENGRAM_WORKER_ROLE)', () => {
  let t: TestApp;
  let owner: Client;
  const workers: EngramProcess[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_RUN_WORKER: 'false' });
    owner = new Client({ connectionString: t.database.ownerUrl });
    await owner.connect();
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.closed));
    await owner.end();
    await t.close();
  });

  /** Who holds the leases of the projections and of the rest (worker pids, or nobody). */
  async function holders(): Promise<Record<'projections' | 'others', string[]>> {
    const { rows } = await owner.query<{ projection: boolean; pids: string[] }>(
      `SELECT name LIKE 'projection:%' AS projection,
              array_agg(DISTINCT CASE WHEN expires_at > now() THEN split_part(holder, ':', 2)
                                      ELSE 'nobody' END) AS pids
         FROM worker_leases GROUP BY 1`,
    );
    return {
      projections: rows.find((row) => row.projection)?.pids ?? [],
      others: rows.find((row) => !row.projection)?.pids ?? [],
    };
  }

  it('splits the partitions by role and runs each role where it is asked to', async () => {
    const agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
    const alice = await t.token({ userId: 'alice', workspaceId: 'w1', roles: ['user'] });
    const projections = spawnEngram('worker', t.database, {
      ...WORKER_ENV,
      ENGRAM_WORKER_ROLE: 'projections',
    });
    workers.push(projections);
    // Offline, one owner at a time beside the projections (they are what the owners read back).
    await projections.waitFor(/sharing \d+ partitions \(projections\).*partition: 1\)/);

    const said = await postUserMessage(
      t,
      agent,
      { workspaceId: 'w1', userId: 'alice' },
      'Je préfère le thé au café le matin.',
    );
    // Read back through the projections: the message is there.
    const context = await request(t.http)
      .get(`/v1/workspaces/w1/users/alice/context?sessionId=s1&minPosition=${said.body.position}`)
      .auth(agent, { type: 'bearer' })
      .expect(200);
    expect(context.body.liveWindow.map((m: { text: string }) => m.text)).toEqual([
      'Je préfère le thé au café le matin.',
    ]);
    // Nobody runs the process managers: the worker says so, and nothing is extracted.
    await projections.waitFor(/No live worker runs the process-managers partitions/, 10_000);
    expect(await holders()).toEqual({
      projections: [String(projections.child.pid)],
      others: [], // not even a lease row: a worker adds those of the partitions it runs
    });
    const memories = () =>
      request(t.http).get('/v1/me/memories?status=approved').auth(alice, { type: 'bearer' });
    expect((await memories().expect(200)).body.items).toEqual([]);

    // A process-managers worker takes every other partition, and the extraction runs.
    const processManagers = spawnEngram('worker', t.database, {
      ...WORKER_ENV,
      ENGRAM_WORKER_ROLE: 'process-managers',
    });
    workers.push(processManagers);
    // With no projection in its process, eight owners at once: their appends batched.
    await processManagers.waitFor(/\(process-managers\).*partition: 8\)/);
    const extracted = await eventually(
      () => memories(),
      (response) => response.status === 200 && response.body.items.length > 0,
      20_000,
    );
    expect(extracted.body.items[0].content).toMatch(/thé/);
    expect(await holders()).toEqual({
      projections: [String(projections.child.pid)],
      others: [String(processManagers.child.pid)],
    });

    // The process-managers worker keeps the policy it read for the positions the projections worker
    // had passed; a review mode changed just before a message still decides that message.
    const admin = await t.token({ userId: 'root', workspaceId: 'w1', roles: ['admin'] });
    await request(t.http)
      .put('/v1/workspaces/w1/memory-policy')
      .auth(admin, { type: 'bearer' })
      .send({ reviewMode: 'admin' })
      .expect(200);
    await postUserMessage(
      t,
      agent,
      { workspaceId: 'w1', userId: 'alice' },
      "J'habite à Lyon depuis dix ans.",
    );
    const pending = await eventually(
      () => request(t.http).get('/v1/me/memories?status=pending').auth(alice, { type: 'bearer' }),
      (response) => response.status === 200 && response.body.items.length > 0,
      20_000,
    );
    expect(pending.body.items.map((m: { content: string }) => m.content)).toEqual([
      expect.stringMatching(/Lyon/),
    ]);
  });
});
