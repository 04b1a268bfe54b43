import { Client, Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { readContextRows } from '../context/context-reads';
import { queryAs, type SqlValue } from './query-as';

const alice = { workspaceId: 'w1', userId: 'alice', roles: ['agent'] as const };
const bob = { workspaceId: 'w1', userId: 'bob', roles: ['agent'] as const };

/** What the caller's transaction-local identity holds on a connection ('' or null: none). */
const IDENTITY_SQL = `SELECT current_setting('engram.workspace_id', true) AS workspace_id,
  current_setting('engram.user_id', true) AS user_id`;

describe('queryAs: one statement under the caller identity, in one round trip', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    const projector = new Client({ connectionString: database.projectorUrl });
    await projector.connect();
    for (const [ws, user] of [
      ['w1', 'alice'],
      ['w1', 'bob'],
      ['w2', 'alice'],
    ]) {
      await projector.query(
        `INSERT INTO user_stream_stats VALUES ($1, $2, 1, 1, now(), now(), 1)`,
        [ws, user],
      );
      await projector.query(
        `INSERT INTO memories (workspace_id, user_id, memory_id, kind, content, confidence, status,
           source_message_id, session_id, generation, created_at, last_seen_at, seen_count, position)
         VALUES ($1, $2, $3, 'fact', $4, 1, 'approved', 'm1', 's1', 1, now(), now(), 1, 1)`,
        [ws, user, `mem-${ws}-${user}`, `${user}'s secret in ${ws}`],
      );
    }
    await projector.end();
    // One connection: every call below reuses the connection the previous one left.
    pool = new Pool({ connectionString: database.appUrl, max: 1 });
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("applies the identity before the row policies run: the caller's rows, never another's", async () => {
    // Were the policies evaluated before the identity was set, alice would see no row at all.
    const rows = await queryAs<{ user_id: string }>(
      pool,
      alice,
      `SELECT workspace_id, user_id FROM user_stream_stats WHERE user_id = $1 OR true`,
      ['bob'],
    );
    expect(rows).toEqual([{ workspace_id: 'w1', user_id: 'alice' }]);
  });

  it("gives the context read nothing of another user's, even when it names that user", async () => {
    const run = <T extends object>(sql: string, params: readonly SqlValue[]) =>
      queryAs<T>(pool, alice, sql, params);
    const own = await readContextRows(run, alice, { sessionId: 's1' });
    expect(own.memories.map((m) => m.content)).toEqual(["alice's secret in w1"]);
    const other = await readContextRows(run, bob, { sessionId: 's1' });
    expect(other.memories).toEqual([]);
  });

  it('leaves no identity on the connection once the call is done, nor after a failed statement', async () => {
    await queryAs(pool, bob, 'SELECT 1 AS one', []);
    expect(await pool.query(IDENTITY_SQL).then((r) => r.rows)).toEqual([
      { workspace_id: '', user_id: '' },
    ]);
    expect(await pool.query('SELECT * FROM user_stream_stats').then((r) => r.rows)).toEqual([]);
    await expect(queryAs(pool, bob, 'SELECT 1 / 0', [])).rejects.toThrow(/division by zero/);
    expect(await pool.query('SELECT user_id FROM user_stream_stats').then((r) => r.rows)).toEqual(
      [],
    );
  });

  it('keeps concurrent callers apart', async () => {
    const two = new Pool({ connectionString: database.appUrl, max: 2 });
    try {
      const read = (identity: typeof alice) =>
        queryAs<{ user_id: string }>(two, identity, 'SELECT user_id FROM user_stream_stats', []);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? alice : bob)).map(async (who) => ({
          who: who.userId,
          seen: (await read(who)).map((row) => row.user_id),
        })),
      );
      for (const { who, seen } of answers) expect(seen).toEqual([who]);
    } finally {
      await two.end();
    }
  });

  it('reads values as data: quotes, backslashes and SQL in a value select nothing more', async () => {
    for (const hostile of ["alice' OR 'a' = 'a", "alice\\' OR true --", 'alice$1']) {
      const rows = await queryAs(
        pool,
        { ...alice, userId: hostile },
        'SELECT user_id FROM user_stream_stats WHERE user_id = $1',
        [hostile],
      );
      expect(rows).toEqual([]);
    }
    const echoed = await queryAs<{ value: string }>(pool, alice, 'SELECT $1::text AS value', [
      "it's a \\ back'slash\\'",
    ]);
    expect(echoed).toEqual([{ value: "it's a \\ back'slash\\'" }]);
    await expect(queryAs(pool, alice, 'SELECT $1::text', ['a\0b'])).rejects.toThrow(/NUL/);
    await expect(queryAs(pool, alice, 'SELECT $2::text', ['a'])).rejects.toThrow(/1 parameters/);
  });

  it('writes numbers, booleans and null as literals of their type', async () => {
    const [row] = await queryAs<{ n: number; m: number; b: boolean; z: null }>(
      pool,
      alice,
      'SELECT $1::int AS n, 1-$2::int AS m, $3::boolean AS b, $4::text AS z',
      [20, -1, true, null],
    );
    expect(row).toEqual({ n: 20, m: 2, b: true, z: null });
  });
});
