import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { ActivityDetails1764400016200 } from './activity-details.migration';

/**
 * The upgrade of a database whose feed holds English lines: the feed is emptied and its checkpoints
 * set back to 0, so that the workers replay it with structured fields.
 */
describe('migration ActivityDetails1764400016200', () => {
  let database: TestDatabase;
  let owner: Client;
  let projector: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = new Client({ connectionString: database.ownerUrl });
    projector = new Client({ connectionString: database.projectorUrl });
    await owner.connect();
    await projector.connect();
  });

  afterAll(async () => {
    await owner?.end();
    await projector?.end();
    await database?.drop();
  });

  /** The migration's up or down, in a transaction of the owner as TypeORM runs it. */
  async function migrate(direction: 'up' | 'down'): Promise<void> {
    const runner = { query: (sql: string) => owner.query(sql) };
    await owner.query('BEGIN');
    await new ActivityDetails1764400016200()[direction](runner as never);
    await owner.query('COMMIT');
  }

  const columns = async () =>
    (
      await owner.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'activity_events'`,
      )
    ).rows.map((row) => row.column_name);

  it('empties a feed of English lines and replays it from the start, with details', async () => {
    await migrate('down');
    expect(await columns()).toEqual(expect.arrayContaining(['summary', 'title']));
    await projector.query(
      `INSERT INTO activity_events (workspace_id, user_id, position, event_type, occurred_at,
         group_key, summary, title)
       VALUES ('w1', 'alice', 7, 'MemoriesWiped', now(), 'event:7', 'Memories wiped', 'Memories wiped')`,
    );
    await projector.query(
      `INSERT INTO projection_checkpoints (name, position)
       VALUES ('activity_events#2/4', 7), ('actions#2/4', 7)`,
    );

    await migrate('up');

    expect(await columns()).toEqual(expect.arrayContaining(['details']));
    expect(await columns()).not.toEqual(expect.arrayContaining(['summary']));
    expect((await projector.query('SELECT * FROM activity_events')).rows).toEqual([]);
    const checkpoints = await projector.query<{ name: string; position: string }>(
      'SELECT name, position FROM projection_checkpoints ORDER BY name',
    );
    expect(checkpoints.rows).toEqual([
      { name: 'actions#2/4', position: '7' },
      { name: 'activity_events#2/4', position: '0' },
    ]);
  });
});
