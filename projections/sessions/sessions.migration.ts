import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class Sessions1764400002001 implements MigrationInterface {
  name = 'Sessions1764400002001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE sessions (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      session_id text NOT NULL,
      message_count integer NOT NULL,
      summarized_count integer NOT NULL DEFAULT 0,
      summarized_through_position bigint NOT NULL DEFAULT 0,
      rolling_summary text NOT NULL DEFAULT '',
      summary_model text,
      summary_updated_at timestamptz,
      first_message_at timestamptz NOT NULL,
      last_message_at timestamptz NOT NULL,
      last_position bigint NOT NULL,
      PRIMARY KEY (workspace_id, user_id, session_id)
    )`);
    for (const statement of userScopedTableStatements('sessions')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE sessions');
  }
}
