import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class MemorySettings1764400002003 implements MigrationInterface {
  name = 'MemorySettings1764400002003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE memory_settings (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      enabled boolean NOT NULL,
      paused_until timestamptz,
      generation integer NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (workspace_id, user_id)
    )`);
    for (const statement of userScopedTableStatements('memory_settings')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE memory_settings');
  }
}
