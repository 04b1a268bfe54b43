import type { MigrationInterface, QueryRunner } from 'typeorm';
import { workspaceScopedTableStatements } from '@engram/database';

export class Webhooks1764400021900 implements MigrationInterface {
  name = 'Webhooks1764400021900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE webhooks (
      workspace_id text NOT NULL,
      webhook_id uuid NOT NULL,
      url text NOT NULL,
      events text[] NOT NULL,
      description text,
      sealed_secret jsonb,
      registered_at timestamptz NOT NULL,
      registered_by text NOT NULL,
      registered_position bigint NOT NULL,
      removed_at timestamptz,
      removed_by text,
      PRIMARY KEY (workspace_id, webhook_id)
    )`);
    for (const statement of workspaceScopedTableStatements('webhooks')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhooks');
  }
}
