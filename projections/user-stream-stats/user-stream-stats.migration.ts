import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class UserStreamStats1764400001000 implements MigrationInterface {
  name = 'UserStreamStats1764400001000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE user_stream_stats (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      event_count integer NOT NULL,
      message_count integer NOT NULL,
      first_event_at timestamptz NOT NULL,
      last_event_at timestamptz NOT NULL,
      last_position bigint NOT NULL,
      PRIMARY KEY (workspace_id, user_id)
    )`);
    for (const statement of userScopedTableStatements('user_stream_stats')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE user_stream_stats');
  }
}
