import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, PROJECTOR_ROLE } from '@engram/database';

export class MemoryOwners1764400003002 implements MigrationInterface {
  name = 'MemoryOwners1764400003002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE memory_owners (
      workspace_id text NOT NULL,
      memory_id text NOT NULL,
      user_id text NOT NULL,
      PRIMARY KEY (workspace_id, user_id, memory_id)
    )`);
    await runner.query(
      'CREATE INDEX memory_owners_by_id ON memory_owners (workspace_id, memory_id)',
    );
    await runner.query('ALTER TABLE memory_owners ENABLE ROW LEVEL SECURITY');
    await runner.query('ALTER TABLE memory_owners FORCE ROW LEVEL SECURITY');
    // Ids and owners only (no content): the owner sees their own rows, a reviewing admin of the
    // workspace (reviewMode admin) sees the workspace's, so that a concurrent decision gets a 409.
    await runner.query(`CREATE POLICY memory_owners_own_rows ON memory_owners FOR SELECT TO ${APP_ROLE}
      USING (workspace_id = current_setting('engram.workspace_id', true)
             AND user_id = current_setting('engram.user_id', true))`);
    await runner.query(`CREATE POLICY memory_owners_admin_review ON memory_owners FOR SELECT TO ${APP_ROLE}
      USING (
        workspace_id = current_setting('engram.workspace_id', true)
        AND 'admin' = ANY (string_to_array(current_setting('engram.roles', true), ','))
        AND EXISTS (SELECT 1 FROM workspace_policies p
                     WHERE p.workspace_id = memory_owners.workspace_id AND p.review_mode = 'admin')
      )`);
    await runner.query(`CREATE POLICY memory_owners_projector ON memory_owners FOR ALL TO ${PROJECTOR_ROLE}
      USING (true) WITH CHECK (true)`);
    await runner.query(`GRANT SELECT ON memory_owners TO ${APP_ROLE}`);
    await runner.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON memory_owners TO ${PROJECTOR_ROLE}`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE memory_owners');
  }
}
