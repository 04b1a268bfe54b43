import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { mintToken } from '@engram/auth';
import { spawnEngram, type EngramProcess } from '../support/engram-process';
import { eventually } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_JWT_SECRET } from '../support/test-runtime';

/** Concurrent writers: enough that requests are in flight, and keep-alive connections open, at SIGTERM. */
const CLIENTS = 16;

/**
 * How a request ended, from the client's side: its status; `refused` (no listener any more, allowed);
 * `reset` on a connection the server had already accepted and kept alive (never allowed: it must be
 * answered); `reset on connect` (a connection the listener never accepted, queued as it closed).
 */
type Outcome = `${number}` | 'refused' | 'reset' | 'reset on connect' | `error ${string}`;

/** One POST over a keep-alive agent (node:http tells whether the socket was reused, fetch does not). */
function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = httpRequest(url, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(`${response.statusCode ?? 0}`));
      response.on('error', () => resolve(request.reusedSocket ? 'reset' : 'reset on connect'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve('refused');
      else if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
        resolve(request.reusedSocket ? 'reset' : 'reset on connect');
      } else resolve(`error ${error.code ?? error.message}`);
    });
    request.end(body);
  });
}

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

  it('drains under load: every answer a 2xx, nothing the server accepted reset, nothing acknowledged lost; a restart resumes', async () => {
    const token = await mintToken(TEST_JWT_SECRET, {
      userId: 'chat-web',
      workspaceId: 'w1',
      roles: ['agent'],
    });
    const { api, url } = await start();
    // Listens on the loopback interface unless HOST says otherwise.
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const outcomes = new Map<Outcome, number>();
    const acknowledged: string[] = [];
    const failed: string[] = [];
    let stopping = false;
    /** How the requests sent after SIGTERM ended (in flight at it, or sent during the drain). */
    const afterSigterm = new Map<Outcome, number>();
    let writing = true;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const client = async (index: number) => {
      for (let turn = 0; writing; turn += 1) {
        const messageId = randomUUID();
        const outcome = await post(
          agent,
          `${url}/v1/workspaces/w1/users/user-${index}/messages`,
          {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            // The server logs it with each request it takes: a failed request must not be among them.
            'x-correlation-id': messageId,
          },
          JSON.stringify({
            messageId,
            sessionId: 's1',
            role: 'user',
            channel: 'web',
            text: `Je préfère le thé, message ${turn}.`,
          }),
        );
        if (outcome === '202') acknowledged.push(messageId);
        else if (!/^\d+$/.test(outcome)) {
          failed.push(messageId);
          await sleep(20);
        }
        for (const tally of stopping ? [outcomes, afterSigterm] : [outcomes]) {
          tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    await eventually(
      () => Promise.resolve(acknowledged.length),
      (done) => done >= 200,
      30_000,
    );
    api.child.kill('SIGTERM');
    stopping = true;
    const signalledAt = Date.now();
    expect(await api.exited).toBe(0);
    const stoppedAfterMs = Date.now() - signalledAt;
    await sleep(300);
    writing = false;
    await load;
    agent.destroy();
    process.stdout.write(
      `graceful shutdown under ${CLIENTS} clients: ${JSON.stringify(Object.fromEntries(outcomes))}; ` +
        `ended after SIGTERM: ${JSON.stringify(Object.fromEntries(afterSigterm))}; ` +
        `stopped ${stoppedAfterMs} ms after SIGTERM\n`,
    );
    expect(api.output()).toMatch(/Stopped taking requests/);
    expect(api.output()).toMatch(/Stopped cleanly/);
    // Every answer is a 2xx (no 503); no request sent on an open connection was reset; the only
    // failures are connections the closed listener refused (or, at the instant it closed, had queued
    // without accepting them).
    expect(
      [...outcomes.keys()].filter(
        (outcome) =>
          !/^2\d\d$/.test(outcome) && outcome !== 'refused' && outcome !== 'reset on connect',
      ),
    ).toEqual([]);
    // The server never saw a failed request: none is in its logs, none is stored (checked below).
    expect(failed.filter((id) => api.output().includes(id))).toEqual([]);

    // Every acknowledged write is stored, and nothing else; the leases were given back.
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
  }, 120_000);
});
