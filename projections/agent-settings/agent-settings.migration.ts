import type { MigrationInterface, QueryRunner } from 'typeorm';
import { workspaceScopedTableStatements } from '@engram/database';

export class AgentSettings1764400003001 implements MigrationInterface {
  name = 'AgentSettings1764400003001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE agent_settings (
      workspace_id text NOT NULL,
      agent_id text NOT NULL,
      memory_enabled boolean NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text NOT NULL,
      PRIMARY KEY (workspace_id, agent_id)
    )`);
    for (const statement of workspaceScopedTableStatements('agent_settings')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE agent_settings');
  }
}
