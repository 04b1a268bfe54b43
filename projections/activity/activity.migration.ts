import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class ActivityEvents1764400004101 implements MigrationInterface {
  name = 'ActivityEvents1764400004101';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE activity_events (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      position bigint NOT NULL,
      event_type text NOT NULL,
      occurred_at timestamptz NOT NULL,
      channel text,
      trace_id text,
      group_key text NOT NULL,
      summary text NOT NULL,
      title text NOT NULL,
      action_id text,
      PRIMARY KEY (workspace_id, user_id, position)
    )`);
    // A group's events, and "is there an earlier event in this group?" (the page query's anti-join).
    await runner.query(
      `CREATE INDEX activity_events_by_group
         ON activity_events (workspace_id, user_id, group_key, position)`,
    );
    for (const statement of userScopedTableStatements('activity_events')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE activity_events');
  }
}
