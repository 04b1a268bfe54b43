import type { MigrationInterface, QueryRunner } from 'typeorm';
import { workspaceScopedTableStatements } from '@engram/database';

export class SeenAgents1764400005011 implements MigrationInterface {
  name = 'SeenAgents1764400005011';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE seen_agents (
      workspace_id text NOT NULL,
      agent_id text NOT NULL,
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      message_count integer NOT NULL,
      PRIMARY KEY (workspace_id, agent_id)
    )`);
    for (const statement of workspaceScopedTableStatements('seen_agents')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE seen_agents');
  }
}
