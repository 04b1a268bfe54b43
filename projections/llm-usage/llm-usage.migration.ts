import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, userScopedTableStatements } from '@engram/database';

export class LlmUsage1764400016100 implements MigrationInterface {
  name = 'LlmUsage1764400016100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE llm_usage (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      day text NOT NULL CHECK (day ~ '^\\d{4}-\\d{2}-\\d{2}$'),
      purpose text NOT NULL CHECK (purpose IN ('extraction', 'summary', 'identity_card')),
      calls integer NOT NULL DEFAULT 0,
      failures integer NOT NULL DEFAULT 0,
      prompt_tokens bigint NOT NULL DEFAULT 0,
      completion_tokens bigint NOT NULL DEFAULT 0,
      latency_ms bigint NOT NULL DEFAULT 0,
      engines text[] NOT NULL DEFAULT '{}',
      deferred integer NOT NULL DEFAULT 0,
      PRIMARY KEY (workspace_id, user_id, day, purpose)
    )`);
    // The workspace view sums every user's days: by workspace and day, then user.
    await runner.query('CREATE INDEX llm_usage_by_workspace_day ON llm_usage (workspace_id, day)');
    for (const statement of userScopedTableStatements('llm_usage')) {
      await runner.query(statement);
    }
    // Unlike every other per-user table, the workspace's admins may read its rows: they hold counts,
    // tokens, latencies and model names — what the workspace pays for — and no content, not even a
    // memory's kind or a message id. Read-only, and only for the admin's own workspace.
    await runner.query(`CREATE POLICY llm_usage_workspace_admins ON llm_usage FOR SELECT TO ${APP_ROLE}
      USING (
        workspace_id = current_setting('engram.workspace_id', true)
        AND 'admin' = ANY (string_to_array(current_setting('engram.roles', true), ','))
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE llm_usage');
  }
}
