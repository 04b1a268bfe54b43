import { createDataSource } from '@engram/database';
import { READ_MODEL_ENTITIES, sessionsProjection, type Session } from '@engram/projections';
import type { DataSource, EntityManager } from 'typeorm';
import { sqlRowTable } from '../../projections/runner/row-table';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * A projection batch reads the rows of its keys before applying its events: that lookup must be an
 * index probe per key, never a scan of the table, whatever the planner guesses of the JSON keys.
 */
describe("a read model table's lookup by keys", () => {
  let database: TestDatabase;
  let projector: DataSource;
  const ROWS = 3000;

  const session = (i: number): Session => ({
    workspaceId: 'w',
    userId: `user-${i % 100}`,
    sessionId: `s${i}`,
    messageCount: i,
    summarizedCount: 0,
    summarizedThroughPosition: '0',
    rollingSummary: `summary ${i} `.repeat(20),
    summaryModel: null,
    summaryUpdatedAt: null,
    firstMessageAt: new Date('2026-06-08T16:40:00.000Z'),
    lastMessageAt: new Date('2026-06-08T16:41:00.000Z'),
    lastPosition: String(i),
  });

  /** The statements `findByKeys` sends, as a transaction's manager runs them. */
  async function lookUp(
    keys: readonly Partial<Session>[],
  ): Promise<{ rows: Session[]; statements: string[] }> {
    return projector.transaction(async (manager: EntityManager) => {
      const statements: string[] = [];
      const query = manager.query.bind(manager);
      manager.query = ((text: string, parameters?: unknown[]) => {
        statements.push(text);
        return query(text, parameters);
      }) as typeof manager.query;
      const rows = await sqlRowTable(manager, sessionsProjection).findByKeys(keys);
      return { rows, statements };
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    projector = await createDataSource(database.projectorUrl, READ_MODEL_ENTITIES, 2).initialize();
    const all = Array.from({ length: ROWS }, (_, i) => session(i));
    await projector.transaction((manager) => sqlRowTable(manager, sessionsProjection).upsert(all));
    await projector.query('ANALYZE sessions');
  });

  afterAll(async () => {
    await projector.destroy();
    await database.drop();
  });

  it('returns the stored row of each key once, and nothing for a key not stored', async () => {
    const keys = [
      { workspaceId: 'w', userId: 'user-7', sessionId: 's7' },
      { workspaceId: 'w', userId: 'user-7', sessionId: 's999999' },
      { workspaceId: 'w', userId: 'user-12', sessionId: 's2512' },
      { workspaceId: 'w', userId: 'user-7', sessionId: 's7' },
    ];
    const { rows } = await lookUp(keys);
    const bySession = [...rows].sort((a, b) => a.messageCount - b.messageCount);
    expect(bySession).toEqual([session(7), session(2512)]);
  });

  it('probes the index for each key instead of scanning the table', async () => {
    const keys = [{ workspaceId: 'w', userId: 'user-3', sessionId: 's3' }];
    const { statements } = await lookUp(keys);
    expect(statements).toHaveLength(1);
    const [plan] = await projector.transaction(async (manager) => {
      // The runner's statements are prepared: planned once, for any keys.
      await manager.query('SET LOCAL plan_cache_mode = force_generic_plan');
      return manager.query<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${statements[0]!}`, [
        JSON.stringify(
          keys.map((k) => ({
            workspace_id: k.workspaceId,
            user_id: k.userId,
            session_id: k.sessionId,
          })),
        ),
      ]);
    });
    const nodes = JSON.stringify(plan!['QUERY PLAN']);
    expect(nodes).toContain('"Relation Name":"sessions"');
    expect(nodes).not.toContain('"Node Type":"Seq Scan"');
  });
});
