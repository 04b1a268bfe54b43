import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { mintToken } from '@engram/auth';
import { spawnEngram, type EngramProcess } from '../support/engram-process';
import { eventually } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_JWT_SECRET } from '../support/test-runtime';

/** The API with its in-process worker, stopped with SIGTERM while clients write, then restarted. */
describe('graceful shutdown', () => {
  let database: TestDatabase;
  let owner: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
  });
  afterAll(async () => {
    await owner.end();
    await database.drop();
  });

  const count = async (sql: string) =>
    Number((await owner.query<{ count: string }>(sql)).rows[0]!.count);

  async function start(): Promise<{ api: EngramProcess; url: string }> {
    const api = spawnEngram('api', database, { ENGRAM_LEASE_TTL_SECONDS: '5' });
    const [, url] = await api.waitFor(/listening on (http:\/\/\S+)/);
    return { api, url: url! };
  }

  it('stops taking requests, answers those in flight, checkpoints and gives its leases back; a restart resumes', async () => {
    const token = await mintToken(TEST_JWT_SECRET, {
      userId: 'chat-web',
      workspaceId: 'w1',
      roles: ['agent'],
    });
    const { api, url } = await start();
    const answers = new Map<string, number>();
    const acknowledged: string[] = [];
    let writing = true;
    const client = async (index: number) => {
      for (let turn = 0; writing; turn += 1) {
        const messageId = randomUUID();
        let answer: string;
        try {
          const reply = await fetch(`${url}/v1/workspaces/w1/users/user-${index}/messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              messageId,
              sessionId: 's1',
              role: 'user',
              channel: 'web',
              text: `Je préfère le thé, message ${turn}.`,
            }),
          });
          answer = String(reply.status);
          if (reply.status === 202) acknowledged.push(messageId);
        } catch {
          // After the listener closed: the connection is refused, never answered with an error.
          answer = 'refused';
          await sleep(20);
        }
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
    };
    const load = Promise.all([0, 1, 2].map(client));
    await eventually(
      () => Promise.resolve(acknowledged.length),
      (done) => done >= 50,
    );
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    await sleep(200);
    writing = false;
    await load;
    expect(api.output()).toMatch(/Stopped taking requests/);
    expect(api.output()).toMatch(/Stopped cleanly/);
    expect(
      [...answers.keys()].filter((answer) => answer !== '202' && answer !== 'refused'),
    ).toEqual([]);

    // Every acknowledged write is stored; the leases were given back, not left to expire.
    const stored = await owner.query<{ id: string }>(
      `SELECT data->>'messageId' AS id FROM events WHERE type = 'MessageRecorded'`,
    );
    expect(stored.rows.map((row) => row.id).sort()).toEqual([...acknowledged].sort());
    expect(await count('SELECT count(*) FROM worker_leases WHERE holder IS NOT NULL')).toBe(0);
    expect(await count('SELECT count(*) FROM worker_instances')).toBe(0);

    // Restarted, it resumes from the checkpoints at once (no lease to wait for) and catches up.
    const restarted = await start();
    const projected = await eventually(
      () => count('SELECT count(*) FROM session_messages'),
      (rows) => rows === acknowledged.length,
      20_000,
    );
    expect(projected).toBe(acknowledged.length);
    restarted.api.child.kill('SIGTERM');
    expect(await restarted.api.exited).toBe(0);
    process.stdout.write(
      `graceful shutdown: ${JSON.stringify(Object.fromEntries(answers))} during the stop\n`,
    );
  }, 120_000);
});
