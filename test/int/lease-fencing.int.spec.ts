import { setTimeout as sleep } from 'node:timers/promises';
import { createDataSource } from '@engram/database';
import { leaseTable } from '@engram/platform';
import {
  CheckpointCommitter,
  READ_MODEL_ENTITIES,
  advanceCheckpoint,
  ensureCheckpoint,
  readCheckpoint,
  userStreamStatsProjection,
} from '@engram/projections';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { sqlRowTable } from '../../projections/runner/row-table';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { userStreamStatsRow } from '../support/user-stream-stats-row';

const PARTITION = 'projection:fenced';

describe('projection batches are fenced by their lease', () => {
  let database: TestDatabase;
  let projector: DataSource;
  let position = 0n;

  /** One batch of `worker`'s, in a transaction left open until `commit` is called. */
  async function batchInFlight(worker: string) {
    const runner = projector.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const outcome = await advanceCheckpoint(runner.manager, {
      name: 'fenced',
      from: position,
      to: position + 1n,
      fence: leaseTable.heldBy(worker, PARTITION),
    });
    if (outcome === 'advanced') position += 1n;
    return {
      outcome,
      commit: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
    };
  }

  async function expireLease(): Promise<void> {
    await projector.query(
      `UPDATE worker_leases SET expires_at = now() - interval '1 second' WHERE name = $1`,
      [PARTITION],
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    projector = await createDataSource(database.projectorUrl, READ_MODEL_ENTITIES, 4).initialize();
    await ensureCheckpoint(projector.manager, 'fenced');
    await leaseTable.ensurePartitions(projector, [PARTITION]);
  });

  afterAll(async () => {
    await projector.destroy();
    await database.drop();
  });

  it('writes nothing for a worker whose lease was taken over', async () => {
    expect(await leaseTable.acquire(projector, 'a', [PARTITION], 60)).toEqual([PARTITION]);
    const first = await batchInFlight('a');
    await first.commit();
    expect(first.outcome).toBe('advanced');
    await expireLease();
    expect(await leaseTable.acquire(projector, 'b', [PARTITION], 60)).toEqual([PARTITION]);
    const late = await batchInFlight('a');
    await late.commit();
    expect(late.outcome).toBe('fenced');
  });

  it("makes a takeover wait for the holder's batch in flight, but not the holder's renewal", async () => {
    const inFlight = await batchInFlight('b');
    expect(inFlight.outcome).toBe('advanced');
    expect(await leaseTable.renew(projector, 'b', [PARTITION], 60)).toEqual(new Set([PARTITION]));
    await expireLease();
    let taken: boolean | undefined;
    const takeover = leaseTable.acquire(projector, 'c', [PARTITION], 60).then((won) => {
      taken = won.includes(PARTITION);
    });
    await sleep(300);
    expect(taken).toBeUndefined();
    await inFlight.commit();
    await takeover;
    expect(taken).toBe(true);
  });

  it("checks a group's checkpoint-only moves and their leases in one statement, its upserts into one table and their leases in another", async () => {
    const names = ['m-first', 'm-held', 'm-lost', 'm-moved', 'm-free', 'm-written', 'm-unwritten'];
    for (const name of names) await ensureCheckpoint(projector.manager, name);
    await leaseTable.ensurePartitions(projector, ['lease-held', 'lease-lost']);
    await leaseTable.acquire(projector, 'w', ['lease-held'], 60);
    const held = leaseTable.heldBy('w', 'lease-held');
    const lost = leaseTable.heldBy('w', 'lease-lost');
    const committer = new CheckpointCommitter(projector, 1);
    const sent = jest.spyOn(Client.prototype, 'query');
    const written = (userId: string) =>
      sqlRowTable(projector.manager, userStreamStatsProjection).guardedUpsert([
        userStreamStatsRow(userId),
      ]);
    const outcomes = await Promise.all([
      // Sent alone; the others queue meanwhile and go together.
      committer.advance({ name: 'm-first', from: 0n, to: 1n, fence: held }),
      committer.advance({ name: 'm-held', from: 0n, to: 5n, fence: held }),
      committer.advance({ name: 'm-lost', from: 0n, to: 5n, fence: lost }),
      committer.advance({ name: 'm-moved', from: 3n, to: 5n, fence: held }),
      committer.advance({ name: 'm-free', from: 0n, to: 5n }),
      committer.advance({
        name: 'm-written',
        from: 0n,
        to: 5n,
        fence: held,
        upsert: written('m-user'),
      }),
      committer.advance({
        name: 'm-unwritten',
        from: 0n,
        to: 5n,
        fence: lost,
        upsert: written('m-lost-user'),
      }),
    ]);
    const statements = sent.mock.calls.map(([config]) =>
      typeof config === 'string' ? config : (config as { text: string }).text,
    );
    sent.mockRestore();
    await committer.close();
    expect(outcomes).toEqual([
      'advanced',
      'advanced',
      'fenced',
      'moved',
      'advanced',
      'advanced',
      'fenced',
    ]);
    // The first alone; then one transaction: the four moves together, the two upserts together.
    expect(statements).toHaveLength(5);
    expect(statements[1]).toBe('BEGIN');
    expect(statements[2]).toMatch(/unnest/);
    expect(statements[3]).toMatch(/unnest[\s\S]*INSERT INTO "user_stream_stats"/);
    expect(statements[4]).toBe('COMMIT');
    const positions = await Promise.all(
      names.map((name) => readCheckpoint(projector.manager, name)),
    );
    expect(positions).toEqual([1n, 5n, 0n, 0n, 5n, 5n, 0n]);
    const users = await projector.query<{ user_id: string }[]>(
      `SELECT user_id FROM user_stream_stats WHERE user_id LIKE 'm-%'`,
    );
    expect(users).toEqual([{ user_id: 'm-user' }]);
  });
});
