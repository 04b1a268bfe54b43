import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class Actions1764400004100 implements MigrationInterface {
  name = 'Actions1764400004100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE actions (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      action_id text NOT NULL,
      trace_id text,
      tool text NOT NULL,
      target text,
      summary text NOT NULL,
      input jsonb,
      status text NOT NULL
        CHECK (status IN ('pending', 'confirmed', 'executed', 'aborted', 'failed', 'expired')),
      requested_via text NOT NULL,
      requires_confirmation boolean NOT NULL,
      steps jsonb NOT NULL,
      expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      executed_at timestamptz,
      result jsonb,
      error text,
      abort_reason text,
      search_text text NOT NULL,
      position bigint NOT NULL,
      PRIMARY KEY (workspace_id, user_id, action_id)
    )`);
    await runner.query(
      'CREATE INDEX actions_recent ON actions (workspace_id, user_id, created_at DESC, action_id DESC)',
    );
    // The expiry scheduler's work list: only pending actions are in it.
    await runner.query(
      "CREATE INDEX actions_pending_expiry ON actions (expires_at) WHERE status = 'pending'",
    );
    for (const statement of userScopedTableStatements('actions')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE actions');
  }
}
