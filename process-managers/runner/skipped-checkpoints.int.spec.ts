import {
  openStoreAndProjector,
  type StoreAndProjector,
} from '../../test/support/store-and-projector';
import { ensureCheckpoint, readCheckpoint, writeCheckpoint } from '@engram/projections';
import { DataSource } from 'typeorm';
import { SkippedCheckpoints } from './skipped-checkpoints';

describe('SkippedCheckpoints (the positions reactor partitions passed, stored together)', () => {
  let opened: StoreAndProjector;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
  });
  afterAll(() => opened.close());

  const at = (name: string) => readCheckpoint(opened.projector.manager, name);

  it('stores every partition noted, the last position of each, and only forward', async () => {
    const manager = opened.projector.manager;
    for (const name of ['reactor:a#0/2', 'reactor:a#1/2', 'reactor:b#0/2']) {
      await ensureCheckpoint(manager, name);
    }
    // Another writer (a reaction, or the worker that took the lease) is already further.
    await writeCheckpoint(manager, 'reactor:b#0/2', 50n);
    const skipped = new SkippedCheckpoints(opened.projector, 60_000);
    skipped.note('reactor:a#0/2', 10n);
    skipped.note('reactor:a#0/2', 20n);
    skipped.note('reactor:a#1/2', 30n);
    skipped.note('reactor:b#0/2', 40n);
    expect(await at('reactor:a#0/2')).toBe(0n);
    await skipped.flush();
    expect([
      await at('reactor:a#0/2'),
      await at('reactor:a#1/2'),
      await at('reactor:b#0/2'),
    ]).toEqual([20n, 30n, 50n]);
    // Nothing pending: nothing written.
    await writeCheckpoint(manager, 'reactor:a#1/2', 5n);
    await skipped.flush();
    expect(await at('reactor:a#1/2')).toBe(5n);
  });

  it('stores on its own within its interval', async () => {
    await ensureCheckpoint(opened.projector.manager, 'reactor:timed#0/1');
    const skipped = new SkippedCheckpoints(opened.projector, 100);
    skipped.note('reactor:timed#0/1', 7n);
    for (let tries = 0; (await at('reactor:timed#0/1')) < 7n; tries += 1) {
      if (tries > 100) throw new Error('not stored');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('a failed store is not thrown (the checkpoints stay behind; a restart passes those events again)', async () => {
    const closed = new DataSource({ type: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    const skipped = new SkippedCheckpoints(closed, 60_000);
    skipped.note('reactor:x#0/1', 1n);
    await expect(skipped.flush()).resolves.toBeUndefined();
  });
});
