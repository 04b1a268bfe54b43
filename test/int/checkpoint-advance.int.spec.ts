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
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { sqlRowTable } from '../../projections/runner/row-table';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { userStreamStatsRow } from '../support/user-stream-stats-row';

describe("a projection batch's checkpoint advance", () => {
  let database: TestDatabase;
  let projector: DataSource;

  const stats = userStreamStatsRow;
  const writing = (...userIds: string[]): CheckpointAdvance['upsert'] =>
    sqlRowTable(projector.manager, userStreamStatsProjection).guardedUpsert(userIds.map(stats));
  const failing: CheckpointAdvance['upsert'] = {
    table: 'no_such_table',
    rows: '[]',
    into: () => 'INSERT INTO no_such_table VALUES (1)',
  };
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
      advanceCheckpoint(projector.manager, { name, from, to: 5n, fence, upsert: writing(user) });
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
      advanceCheckpoint(projector.manager, { name: 'a', from: 5n, to: 6n, upsert: failing }),
    ).rejects.toThrow(/no_such_table/);
    expect(await readCheckpoint(projector.manager, 'a')).toBe(5n);
    expect(
      await advanceCheckpoint(projector.manager, {
        name: 'a',
        from: 5n,
        to: 6n,
        upsert: writing('al'),
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
      upsert: writing('bo'),
    });
    await advanceCheckpoint(projector.manager, {
      name: 'b',
      from: 6n,
      to: 7n,
      upsert: writing('bob'),
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
      committer.advance({ name: 'ga', from: 0n, to: 5n, upsert: writing('g-alice') }),
      committer.advance({ name: 'gb', from: 0n, to: 5n, upsert: writing('g-bob', 'g-bert') }),
      committer.advance({ name: 'gc', from: 3n, to: 5n, upsert: writing('g-carol') }),
      committer.advance({ name: 'gd', from: 0n, to: 5n, fence: fenced, upsert: writing('g-dave') }),
    ]);
    const statements = sent.mock.calls.map(([config]) =>
      typeof config === 'string' ? config : (config as { name?: string; text: string }),
    );
    sent.mockRestore();
    await committer.close();
    expect(outcomes).toEqual(['advanced', 'advanced', 'moved', 'fenced']);
    // The first alone; the three that queued meanwhile in one transaction: the one with a fence of
    // its own alone (the same text as the first's but its fence), the two upserts into the same
    // table in one statement. Each a prepared statement.
    const [alone, begin, d, bc, commit] = statements;
    expect([begin, commit, statements.length]).toEqual(['BEGIN', 'COMMIT', 5]);
    const name = (statement: typeof alone) => (statement as { name?: string }).name;
    for (const statement of [alone, d, bc])
      expect(name(statement)).toMatch(/^engram_[0-9a-f]{24}$/);
    expect(new Set([name(alone), name(d), name(bc)]).size).toBe(3);
    expect((bc as { text: string }).text).toMatch(/unnest/);
    const users = await written();
    expect(users).toEqual(expect.arrayContaining(['g-alice', 'g-bob', 'g-bert']));
    expect(users).not.toEqual(expect.arrayContaining(['g-carol']));
    expect(users).not.toEqual(expect.arrayContaining(['g-dave']));
    expect(await readCheckpoint(projector.manager, 'gc')).toBe(0n);
  });

  it('upserts the rows of every batch of a set whose checkpoint moved, and only those, in one statement whatever their number', async () => {
    const names = ['s1', 's2', 's3', 's4', 's5'];
    for (const name of names) await ensureCheckpoint(projector.manager, name);
    await projector.query(`UPDATE projection_checkpoints SET position = 2 WHERE name = 's3'`);
    const committer = new CheckpointCommitter(projector, 1);
    const sent = jest.spyOn(Client.prototype, 'query');
    const first = await Promise.all([
      committer.advance({ name: 's1', from: 0n, to: 4n, upsert: writing('s-one') }),
      committer.advance({ name: 's2', from: 0n, to: 4n, upsert: writing('s-two', 's-deux') }),
      committer.advance({ name: 's3', from: 0n, to: 4n, upsert: writing('s-three') }),
      committer.advance({ name: 's4', from: 0n, to: 4n, upsert: writing('s-four') }),
    ]);
    // Another group of another size: the same statement (prepared once), a row updated.
    const updated = sqlRowTable(projector.manager, userStreamStatsProjection).guardedUpsert([
      { ...stats('s-two'), eventCount: 2 },
    ]);
    const second = await Promise.all([
      committer.advance({ name: 's5', from: 0n, to: 4n }),
      committer.advance({ name: 's2', from: 4n, to: 6n, upsert: updated }),
      committer.advance({ name: 's4', from: 4n, to: 6n, upsert: writing('s-five') }),
    ]);
    const prepared = sent.mock.calls
      .map(([config]) => config as { name?: string; text?: string })
      .filter((config) => config.text?.includes('unnest'))
      .map((config) => config.name);
    sent.mockRestore();
    await committer.close();
    expect(first).toEqual(['advanced', 'advanced', 'moved', 'advanced']);
    expect(second).toEqual(['advanced', 'advanced', 'advanced']);
    expect(prepared).toHaveLength(2);
    expect(prepared[1]).toBe(prepared[0]);
    const users = await written();
    expect(users).toEqual(expect.arrayContaining(['s-deux', 's-five', 's-four', 's-one', 's-two']));
    expect(users).not.toContain('s-three');
    const positions = await Promise.all(names.map((n) => readCheckpoint(projector.manager, n)));
    expect(positions).toEqual([4n, 6n, 2n, 6n, 4n]);
    const [row] = await projector.query<{ event_count: number }[]>(
      `SELECT event_count FROM user_stream_stats WHERE user_id = 's-two'`,
    );
    expect(row).toEqual({ event_count: 2 });
  });

  it("the committer keeps one batch's failure its own: the others of its group are applied", async () => {
    const committer = new CheckpointCommitter(projector, 1);
    const results = await Promise.allSettled([
      committer.advance({ name: 'gc', from: 0n, to: 1n }),
      committer.advance({ name: 'ga', from: 5n, to: 6n, upsert: failing }),
      committer.advance({ name: 'gb', from: 5n, to: 6n, upsert: writing('g-bea') }),
    ]);
    await committer.close();
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await readCheckpoint(projector.manager, 'ga')).toBe(5n);
    expect(await readCheckpoint(projector.manager, 'gb')).toBe(6n);
    expect(await written()).toEqual(expect.arrayContaining(['g-bea']));
  });
});
