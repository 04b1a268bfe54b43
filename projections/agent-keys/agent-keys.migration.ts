import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, PROJECTOR_ROLE } from '@engram/database';

export class AgentKeys1764400019000 implements MigrationInterface {
  name = 'AgentKeys1764400019000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE agent_keys (
      workspace_id text NOT NULL,
      key_id text NOT NULL,
      agent_id text NOT NULL,
      name text,
      digest text NOT NULL,
      created_at timestamptz NOT NULL,
      created_by text NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_by text,
      PRIMARY KEY (workspace_id, key_id)
    )`);
    await runner.query('CREATE INDEX agent_keys_by_id ON agent_keys (key_id)');
    await runner.query(
      'CREATE INDEX agent_keys_by_agent ON agent_keys (workspace_id, agent_id, created_at)',
    );
    // Unlike the other workspace settings, only the workspace's admins may list the keys (their
    // digests, names and uses): members of the workspace have no business with its credentials.
    await runner.query('ALTER TABLE agent_keys ENABLE ROW LEVEL SECURITY');
    await runner.query('ALTER TABLE agent_keys FORCE ROW LEVEL SECURITY');
    await runner.query(`CREATE POLICY agent_keys_workspace_admins ON agent_keys FOR SELECT TO ${APP_ROLE}
      USING (
        workspace_id = current_setting('engram.workspace_id', true)
        AND 'admin' = ANY (string_to_array(current_setting('engram.roles', true), ','))
      )`);
    // A request bearing a key has no identity yet: the key is its identity. Its lookup runs with
    // only the id it presents (`engram.agent_key_id`), and this policy shows it the row of that id,
    // which alone can tell whether the secret matches; nothing else of any workspace.
    await runner.query(`CREATE POLICY agent_keys_presented ON agent_keys FOR SELECT TO ${APP_ROLE}
      USING (key_id = current_setting('engram.agent_key_id', true))`);
    await runner.query(`CREATE POLICY agent_keys_projector ON agent_keys FOR ALL TO ${PROJECTOR_ROLE}
      USING (true) WITH CHECK (true)`);
    await runner.query(`GRANT SELECT ON agent_keys TO ${APP_ROLE}`);
    await runner.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON agent_keys TO ${PROJECTOR_ROLE}`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE agent_keys');
  }
}
