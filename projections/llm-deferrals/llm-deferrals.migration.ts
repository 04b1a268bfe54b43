import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class LlmDeferrals1764400016101 implements MigrationInterface {
  name = 'LlmDeferrals1764400016101';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE llm_deferrals (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      purpose text NOT NULL CHECK (purpose IN ('extraction', 'summary')),
      cause text NOT NULL,
      message_id text NOT NULL,
      generation integer,
      budget_limit integer NOT NULL,
      deferred_at timestamptz NOT NULL,
      until timestamptz NOT NULL,
      position bigint NOT NULL,
      PRIMARY KEY (workspace_id, user_id, purpose, cause)
    )`);
    // The job's work list: what is due, oldest first.
    await runner.query('CREATE INDEX llm_deferrals_due ON llm_deferrals (until, position)');
    for (const statement of userScopedTableStatements('llm_deferrals')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE llm_deferrals');
  }
}
