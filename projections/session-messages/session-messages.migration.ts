import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class SessionMessages1764400002000 implements MigrationInterface {
  name = 'SessionMessages1764400002000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE session_messages (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      message_id text NOT NULL,
      session_id text NOT NULL,
      role text NOT NULL,
      channel text NOT NULL,
      text text NOT NULL,
      agent_id text,
      trace_id text,
      occurred_at timestamptz NOT NULL,
      position bigint NOT NULL,
      PRIMARY KEY (workspace_id, user_id, message_id)
    )`);
    await runner.query(
      `CREATE INDEX session_messages_by_session
         ON session_messages (workspace_id, user_id, session_id, position)`,
    );
    for (const statement of userScopedTableStatements('session_messages')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE session_messages');
  }
}
