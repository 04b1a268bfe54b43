import type { Pool } from 'pg';
import { createDataSource } from '@engram/database';
import {
  CheckpointCommitter,
  READ_MODEL_ENTITIES,
  ensureCheckpoint,
  readCheckpoint,
  userStreamStatsProjection,
  type CheckpointAdvance,
  type UserStreamStats,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { sqlRowTable } from '../../projections/runner/row-table';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('checkpoint committer', () => {
  let database: TestDatabase;
  let projector: DataSource;

  const stats = (userId: string): UserStreamStats => ({
    workspaceId: 'w',
    userId,
    eventCount: 1,
    messageCount: 1,
    firstEventAt: new Date('2026-06-08T16:40:00.000Z'),
    lastEventAt: new Date('2026-06-08T16:40:00.000Z'),
    lastPosition: '1',
  });
  const writing =
    (userId: string): CheckpointAdvance['write'] =>
    (first, guard) =>
      sqlRowTable(projector.manager, userStreamStatsProjection).guardedUpsert(
        [stats(userId)],
        first,
        guard,
      );
  const failing: CheckpointAdvance['write'] = () => ({
    sql: 'INSERT INTO no_such_table VALUES (1)',
    params: [],
  });
  const fenced = () => ({ sql: 'false', params: [] });

  async function written(): Promise<string[]> {
    const rows = await projector.query<{ user_id: string }[]>(
      'SELECT user_id FROM user_stream_stats ORDER BY user_id',
    );
    return rows.map((row) => row.user_id);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    projector = await createDataSource(database.projectorUrl, READ_MODEL_ENTITIES, 4).initialize();
    for (const name of ['a', 'b', 'c', 'd']) await ensureCheckpoint(projector.manager, name);
  });

  afterAll(async () => {
    await projector.destroy();
    await database.drop();
  });

  it('groups the advances that wait into one statement; each write is made only if its checkpoint moved', async () => {
    const committer = new CheckpointCommitter(projector, 1);
    const query = jest.spyOn(projector.manager, 'query');
    const pool = (projector.driver as unknown as { master: Pool }).master;
    const prepared = jest.spyOn(pool, 'query');
    const outcomes = await Promise.all([
      committer.advance({ name: 'a', from: 0n, to: 5n, write: writing('alice') }),
      committer.advance({ name: 'b', from: 0n, to: 5n, write: writing('bob') }),
      committer.advance({ name: 'c', from: 3n, to: 5n, write: writing('carol') }),
      committer.advance({ name: 'd', from: 0n, to: 5n, fence: fenced, write: writing('dave') }),
    ]);
    expect(outcomes).toEqual(['advanced', 'advanced', 'moved', 'fenced']);
    // The first alone, as a prepared statement; the three that queued meanwhile in one statement.
    expect(
      prepared.mock.calls.map(([config]) => typeof (config as { name?: string }).name),
    ).toEqual(['string']);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    prepared.mockRestore();
    expect(await written()).toEqual(['alice', 'bob']);
    expect(await readCheckpoint(projector.manager, 'b')).toBe(5n);
    expect(await readCheckpoint(projector.manager, 'c')).toBe(0n);
    expect(await readCheckpoint(projector.manager, 'd')).toBe(0n);
  });

  it("keeps one batch's failure its own: the others of its group are applied", async () => {
    const committer = new CheckpointCommitter(projector, 1);
    const results = await Promise.allSettled([
      committer.advance({ name: 'c', from: 0n, to: 1n }),
      committer.advance({ name: 'a', from: 5n, to: 6n, write: failing }),
      committer.advance({ name: 'b', from: 5n, to: 6n, write: writing('bea') }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await readCheckpoint(projector.manager, 'a')).toBe(5n);
    expect(await readCheckpoint(projector.manager, 'b')).toBe(6n);
    expect(await written()).toEqual(['alice', 'bea', 'bob']);
  });
});
