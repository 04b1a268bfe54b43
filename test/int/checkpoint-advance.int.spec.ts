import { createDataSource } from '@engram/database';
import { Client, type Pool } from 'pg';
import {
  CheckpointCommitter,
  READ_MODEL_ENTITIES,
  advanceCheckpoint,
  ensureCheckpoint,
  readCheckpoint,
  userStreamStatsProjection,
  type CheckpointAdvance,
  type UserStreamStats,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { sqlRowTable } from '../../projections/runner/row-table';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe("a projection batch's checkpoint advance", () => {
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
    for (const name of ['a', 'b', 'c', 'd', 'ga', 'gb', 'gc', 'gd']) {
      await ensureCheckpoint(projector.manager, name);
    }
  });

  afterAll(async () => {
    await projector.destroy();
    await database.drop();
  });

  it('makes each write only if its checkpoint moved and its fence holds', async () => {
    const advance = (name: string, from: bigint, user: string, fence?: typeof fenced) =>
      advanceCheckpoint(projector.manager, { name, from, to: 5n, fence, write: writing(user) });
    const outcomes = [
      await advance('a', 0n, 'alice'),
      await advance('b', 0n, 'bob'),
      await advance('c', 3n, 'carol'),
      await advance('d', 0n, 'dave', fenced),
    ];
    expect(outcomes).toEqual(['advanced', 'advanced', 'moved', 'fenced']);
    expect(await written()).toEqual(['alice', 'bob']);
    expect(await readCheckpoint(projector.manager, 'b')).toBe(5n);
    expect(await readCheckpoint(projector.manager, 'c')).toBe(0n);
    expect(await readCheckpoint(projector.manager, 'd')).toBe(0n);
  });

  it('leaves the checkpoint where it was when the write fails', async () => {
    await expect(
      advanceCheckpoint(projector.manager, { name: 'a', from: 5n, to: 6n, write: failing }),
    ).rejects.toThrow(/no_such_table/);
    expect(await readCheckpoint(projector.manager, 'a')).toBe(5n);
    expect(
      await advanceCheckpoint(projector.manager, {
        name: 'a',
        from: 5n,
        to: 6n,
        write: writing('al'),
      }),
    ).toBe('advanced');
    expect(await written()).toEqual(['al', 'alice', 'bob']);
  });

  it('is a prepared statement of the same name at every batch of a projection (planned once per connection)', async () => {
    const pool = (projector.driver as unknown as { master: Pool }).master;
    const query = jest.spyOn(pool, 'query');
    await advanceCheckpoint(projector.manager, {
      name: 'b',
      from: 5n,
      to: 6n,
      write: writing('bo'),
    });
    await advanceCheckpoint(projector.manager, {
      name: 'b',
      from: 6n,
      to: 7n,
      write: writing('bob'),
    });
    const names = query.mock.calls.map(([config]) => (config as { name?: string }).name);
    query.mockRestore();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^engram_[0-9a-f]{24}$/);
    expect(names[1]).toBe(names[0]);
    expect(await readCheckpoint(projector.manager, 'b')).toBe(7n);
  });

  it('the committer groups the advances that wait into one pipelined transaction of prepared statements; each write only if its checkpoint moved', async () => {
    const committer = new CheckpointCommitter(projector, 1);
    const sent = jest.spyOn(Client.prototype, 'query');
    const outcomes = await Promise.all([
      committer.advance({ name: 'ga', from: 0n, to: 5n, write: writing('g-alice') }),
      committer.advance({ name: 'gb', from: 0n, to: 5n, write: writing('g-bob') }),
      committer.advance({ name: 'gc', from: 3n, to: 5n, write: writing('g-carol') }),
      committer.advance({ name: 'gd', from: 0n, to: 5n, fence: fenced, write: writing('g-dave') }),
    ]);
    const statements = sent.mock.calls.map(([config]) =>
      typeof config === 'string' ? config : (config as { name?: string }).name,
    );
    sent.mockRestore();
    await committer.close();
    expect(outcomes).toEqual(['advanced', 'advanced', 'moved', 'fenced']);
    // The first alone; the three that queued meanwhile in one transaction, each a prepared
    // statement (the same text, so the same name, for the same projection and fence).
    const [alone, begin, b, c, d, commit] = statements;
    expect([begin, commit, statements.length]).toEqual(['BEGIN', 'COMMIT', 6]);
    for (const name of [alone, b, c, d]) expect(name).toMatch(/^engram_[0-9a-f]{24}$/);
    expect([b, c]).toEqual([alone, alone]);
    expect(d).not.toBe(alone);
    const users = await written();
    expect(users).toEqual(expect.arrayContaining(['g-alice', 'g-bob']));
    expect(users).not.toEqual(expect.arrayContaining(['g-carol']));
    expect(users).not.toEqual(expect.arrayContaining(['g-dave']));
    expect(await readCheckpoint(projector.manager, 'gc')).toBe(0n);
  });

  it("the committer keeps one batch's failure its own: the others of its group are applied", async () => {
    const committer = new CheckpointCommitter(projector, 1);
    const results = await Promise.allSettled([
      committer.advance({ name: 'gc', from: 0n, to: 1n }),
      committer.advance({ name: 'ga', from: 5n, to: 6n, write: failing }),
      committer.advance({ name: 'gb', from: 5n, to: 6n, write: writing('g-bea') }),
    ]);
    await committer.close();
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await readCheckpoint(projector.manager, 'ga')).toBe(5n);
    expect(await readCheckpoint(projector.manager, 'gb')).toBe(6n);
    expect(await written()).toEqual(expect.arrayContaining(['g-bea']));
  });
});
