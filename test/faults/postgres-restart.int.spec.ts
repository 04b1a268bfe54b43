import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@engram/database';
import { eventually, startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';

/**
 * A PostgreSQL of this test's own (the shared one must stay up for the other test files), stopped
 * and started again on the same port while four clients post messages to the API.
 */
describe('PostgreSQL restarted while the API takes writes', () => {
  const parent = mkdtempSync(join(tmpdir(), 'engram-restart-pg-'));
  const dataDir = join(parent, 'data');
  const password = randomBytes(12).toString('hex');
  let server: EmbeddedPostgresHandle;
  let port: number;
  let t: TestApp;

  beforeAll(async () => {
    chmodSync(parent, 0o755);
    server = await startEmbeddedPostgres({ dataDir, password });
    port = Number(new URL(server.url).port);
    t = await startTestApp({}, { database: await createTestDatabase(server.url) });
  }, 120_000);

  afterAll(async () => {
    await t.close();
    await server.stop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('answers 503 while it is down, recovers on its own, and keeps every acknowledged write', async () => {
    const agent = await t.token({ userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] });
    const statuses = new Map<number, number>();
    const acknowledged: string[] = [];
    let phase: 'before' | 'down' | 'after' = 'before';
    const acknowledgedAfterRestart = () => statuses.get(-1) ?? 0;
    let writing = true;
    const client = async (index: number) => {
      for (let turn = 0; writing; turn += 1) {
        const messageId = randomUUID();
        const reply = await request(t.http)
          .post(`/v1/workspaces/w1/users/user-${index}/messages`)
          .auth(agent, { type: 'bearer' })
          .send({
            messageId,
            sessionId: 's1',
            role: 'user',
            channel: 'web',
            text: `Message ${turn}`,
          });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 503) {
          expect(reply.headers['retry-after']).toBeDefined();
          expect(reply.body.message).toMatch(/temporarily unavailable/);
          await sleep(50);
        }
        if (reply.status === 202) {
          acknowledged.push(messageId);
          if (phase === 'after') statuses.set(-1, acknowledgedAfterRestart() + 1);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    await sleep(1000);
    phase = 'down';
    await server.stop();
    await sleep(1500);
    server = await startEmbeddedPostgres({ dataDir, password, port });
    phase = 'after';
    await eventually(
      () => Promise.resolve(acknowledgedAfterRestart()),
      (count) => count >= 20,
      30_000,
    );
    writing = false;
    await load;

    statuses.delete(-1);
    process.stdout.write(
      `postgres restart: answers ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `${acknowledged.length} acknowledged\n`,
    );
    expect([...statuses.keys()].sort()).toEqual([202, 503]);

    // Every acknowledged message is stored exactly once, and the worker caught up with all of them.
    const owner = new Client({ connectionString: t.database.ownerUrl });
    await owner.connect();
    try {
      const stored = await owner.query<{ id: string }>(
        `SELECT data->>'messageId' AS id FROM events WHERE type = 'MessageRecorded'`,
      );
      const ids = stored.rows.map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => acknowledged.includes(id))).toHaveLength(acknowledged.length);
      const projected = await eventually(
        async () =>
          Number(
            (await owner.query<{ count: string }>('SELECT count(*) FROM session_messages')).rows[0]!
              .count,
          ),
        (count) => count === ids.length,
        30_000,
      );
      expect(projected).toBe(ids.length);
    } finally {
      await owner.end();
    }
  }, 120_000);
});
