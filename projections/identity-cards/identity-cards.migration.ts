import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class IdentityCards1764400002004 implements MigrationInterface {
  name = 'IdentityCards1764400002004';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE identity_cards (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      markdown text NOT NULL DEFAULT '',
      memory_count integer NOT NULL DEFAULT 0,
      based_on_position bigint NOT NULL DEFAULT -1,
      model text,
      generated_at timestamptz,
      dirty_position bigint,
      dirty_at timestamptz,
      wiped_position bigint,
      PRIMARY KEY (workspace_id, user_id)
    )`);
    // Only the stale cards, in the order the regeneration worker takes them.
    await runner.query(
      `CREATE INDEX identity_cards_to_regenerate ON identity_cards (dirty_at)
         WHERE dirty_position > based_on_position`,
    );
    for (const statement of userScopedTableStatements('identity_cards')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE identity_cards');
  }
}
