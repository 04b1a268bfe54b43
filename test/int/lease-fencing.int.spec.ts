import { setTimeout as sleep } from 'node:timers/promises';
import { createDataSource } from '@engram/database';
import { leaseTable } from '@engram/platform';
import { READ_MODEL_ENTITIES, advanceCheckpoint, ensureCheckpoint } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

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
});
