import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The memory policy's daily LLM budget per user (issue 16); null, the default, is no budget. */
export class LlmBudgetPolicy1764400016102 implements MigrationInterface {
  name = 'LlmBudgetPolicy1764400016102';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE workspace_policies ADD COLUMN llm_calls_per_user_per_day integer
         CHECK (llm_calls_per_user_per_day >= 1)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE workspace_policies DROP COLUMN llm_calls_per_user_per_day');
  }
}
