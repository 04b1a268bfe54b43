import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { createDataSource } from '@engram/database';
import { PostgresEventStore } from '@engram/event-store';
import { createCodec } from '@engram/platform';
import {
  PROJECTIONS,
  READ_MODEL_ENTITIES,
  catchUpAllPartitions,
  resetProjection,
} from '@engram/projections';
import { spawnEngram, type EngramProcess } from '../support/engram-process';
import { readModelHashes } from '../support/read-model-hashes';
import { startTestApp, type TestApp } from '../support/test-app';
import { testRuntime } from '../support/test-runtime';

const WORKER_ENV = { ENGRAM_LEASE_TTL_SECONDS: '1', ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0' };
const USERS = Array.from({ length: 12 }, (_, index) => `user-${index}`);

/**
 * The API takes messages and actions from four concurrent clients while the worker process is killed
 * with SIGKILL three times and restarted: afterwards every read model equals a clean rebuild and
 * every acknowledged write is in the store exactly once and projected.
 */
describe('a worker killed with SIGKILL under write load', () => {
  let t: TestApp;
  let owner: Client;

  beforeAll(async () => {
    t = await startTestApp({ ENGRAM_RUN_WORKER: 'false' });
    owner = new Client({ connectionString: t.database.ownerUrl });
    await owner.connect();
  });
  afterAll(async () => {
    await owner.end();
    await t.close();
  });

  async function lag(): Promise<{ head: bigint; behind: number }> {
    const head = await owner.query<{ head: string | null }>(
      'SELECT max(global_position) AS head FROM events',
    );
    const position = BigInt(head.rows[0]!.head ?? '0');
    const behind = await owner.query<{ count: string }>(
      'SELECT count(*) FROM projection_checkpoints WHERE position < $1',
      [position.toString()],
    );
    return { head: position, behind: Number(behind.rows[0]!.count) };
  }

  it('leaves read models equal to a clean rebuild, nothing lost, nothing applied twice', async () => {
    const agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
    const acknowledgedMessages: string[] = [];
    const acknowledgedActions: string[] = [];
    let writing = true;
    const client = async (index: number) => {
      for (let turn = 0; writing; turn += 1) {
        const user = USERS[(index * 7 + turn) % USERS.length]!;
        const messageId = randomUUID();
        const reply = await request(t.http)
          .post(`/v1/workspaces/w1/users/${user}/messages`)
          .auth(agent, { type: 'bearer' })
          .send({
            messageId,
            sessionId: `s${turn % 3}`,
            role: 'user',
            channel: 'web',
            text: `Je préfère le thé au café, message ${turn} du client ${index}.`,
          });
        if (reply.status === 202) acknowledgedMessages.push(messageId);
        if (turn % 5 === 0) {
          const actionId = randomUUID();
          const proposed = await request(t.http)
            .post(`/v1/workspaces/w1/users/${user}/actions`)
            .auth(agent, { type: 'bearer' })
            .send({ actionId, tool: 'send_email', summary: 'Relance', channel: 'web' });
          if (proposed.status === 201) acknowledgedActions.push(actionId);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));

    const lagsAtKill: number[] = [];
    for (let crash = 0; crash < 3; crash += 1) {
      const worker = spawnEngram('worker', t.database, WORKER_ENV);
      await worker.waitFor(/lease acquired/);
      await sleep(400 + crash * 300);
      lagsAtKill.push((await lag()).behind);
      worker.child.kill('SIGKILL');
      expect(await worker.exited).toBe('SIGKILL');
    }
    writing = false;
    await load;

    // A last worker takes over once the dead one's leases expire and catches up with everything.
    const last: EngramProcess = spawnEngram('worker', t.database, WORKER_ENV);
    let settled = 0;
    for (let previous = -1n; settled < 3;) {
      await sleep(300);
      const { head, behind } = await lag();
      settled = behind === 0 && head === previous ? settled + 1 : 0;
      previous = head;
    }
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);
    const afterCrashes = await readModelHashes(t.database.ownerUrl);

    // Nothing lost, nothing twice: each acknowledged write is one event and one row.
    const messages = await owner.query<{ id: string }>(
      `SELECT data->>'messageId' AS id FROM events WHERE type = 'MessageRecorded'`,
    );
    const stored = messages.rows.map((row) => row.id);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual([...acknowledgedMessages].sort());
    const projected = await owner.query<{ count: string }>('SELECT count(*) FROM session_messages');
    expect(Number(projected.rows[0]!.count)).toBe(acknowledgedMessages.length);
    const actions = await owner.query<{ count: string }>('SELECT count(*) FROM actions');
    expect(Number(actions.rows[0]!.count)).toBe(acknowledgedActions.length);

    // A clean rebuild of every read model gives the same rows.
    const resources = createCodec(testRuntime(t.database), t.database.appUrl, 'rebuild');
    const store = new PostgresEventStore({ connectionString: t.database.appUrl });
    const dataSource = await createDataSource(
      t.database.projectorUrl,
      READ_MODEL_ENTITIES,
      2,
    ).initialize();
    try {
      for (const projection of PROJECTIONS) {
        await resetProjection(dataSource, projection);
        await catchUpAllPartitions({ store, codec: resources.codec, dataSource }, projection);
      }
    } finally {
      await dataSource.destroy();
      await store.close();
      await resources.close();
    }
    expect(await readModelHashes(t.database.ownerUrl)).toEqual(afterCrashes);
    process.stdout.write(
      `worker crash: ${acknowledgedMessages.length} messages and ${acknowledgedActions.length} ` +
        `actions acknowledged; projections behind the head at each SIGKILL: ${lagsAtKill.join(', ')}\n`,
    );
    expect(lagsAtKill.some((behind) => behind > 0)).toBe(true);
  }, 240_000);
});
