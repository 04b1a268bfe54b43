import { Client } from 'pg';
import { createDataSource, runAs } from '@engram/database';
import { READ_MODEL_ENTITIES, UserStreamStats } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const alice = { workspaceId: 'w1', userId: 'alice', roles: ['user'] as const };
const adminBob = { workspaceId: 'w1', userId: 'bob', roles: ['admin', 'user'] as const };

describe('row-level security on read models', () => {
  let database: TestDatabase;
  let app: DataSource;

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
    }
    await projector.end();
    app = await createDataSource(database.appUrl, READ_MODEL_ENTITIES, 2).initialize();
  });

  afterAll(async () => {
    await app.destroy();
    await database.drop();
  });

  it("never returns another user's rows, even when the WHERE clause asks for them", async () => {
    const rows = await runAs(app, alice, (manager) =>
      manager.find(UserStreamStats, { where: [{ userId: 'bob' }, { userId: 'alice' }] }),
    );
    expect(rows.map((r) => [r.workspaceId, r.userId])).toEqual([['w1', 'alice']]);
    const raw = await runAs(app, alice, (manager) =>
      manager.query(`SELECT user_id FROM user_stream_stats WHERE user_id = 'bob' OR true`),
    );
    expect(raw).toEqual([{ user_id: 'alice' }]);
  });

  it('does not let an admin read the rows of other users of the workspace', async () => {
    const rows = await runAs(app, adminBob, (manager) => manager.find(UserStreamStats));
    expect(rows.map((r) => r.userId)).toEqual(['bob']);
  });

  it('scopes by workspace too: the same user id in another workspace is another user', async () => {
    const rows = await runAs(app, { ...alice, workspaceId: 'w2' }, (manager) =>
      manager.find(UserStreamStats),
    );
    expect(rows.map((r) => [r.workspaceId, r.userId])).toEqual([['w2', 'alice']]);
  });

  it('shows nothing outside a caller identity, and the API role cannot write or lift RLS', async () => {
    expect(await app.query('SELECT * FROM user_stream_stats')).toEqual([]);
    await expect(
      app.query(`INSERT INTO user_stream_stats VALUES ('w1', 'eve', 1, 1, now(), now(), 1)`),
    ).rejects.toThrow(/permission denied/);
    await expect(
      app.query('ALTER TABLE user_stream_stats DISABLE ROW LEVEL SECURITY'),
    ).rejects.toThrow(/must be owner/);
    await expect(
      app.query('SET row_security = off; SELECT * FROM user_stream_stats'),
    ).rejects.toThrow(/row-level security/);
  });

  it('runs the API role without BYPASSRLS and without owning any table', async () => {
    const [role] = await app.query<{ rolbypassrls: boolean; rolsuper: boolean }[]>(
      `SELECT rolbypassrls, rolsuper FROM pg_roles WHERE rolname = current_user`,
    );
    expect(role).toEqual({ rolbypassrls: false, rolsuper: false });
    const owned = await app.query<unknown[]>(
      `SELECT tablename FROM pg_tables WHERE tableowner = current_user`,
    );
    expect(owned).toEqual([]);
  });

  it('puts every read-model table with user rows under a policy', async () => {
    const tables = await app.query<
      { relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }[]
    >(
      `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'user_id'
        WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace`,
    );
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) {
      expect(table).toEqual({
        relname: table.relname,
        relrowsecurity: true,
        relforcerowsecurity: true,
      });
    }
  });
});
