import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, workspaceScopedTableStatements } from '@engram/database';

export class WorkspacePolicies1764400003000 implements MigrationInterface {
  name = 'WorkspacePolicies1764400003000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE workspace_policies (
      workspace_id text PRIMARY KEY,
      review_mode text NOT NULL CHECK (review_mode IN ('auto', 'admin', 'user')),
      auto_approve_above double precision,
      pending_ttl_days integer NOT NULL,
      live_window integer NOT NULL,
      summary_batch integer NOT NULL,
      user_memory_cap integer NOT NULL,
      time_zone text NOT NULL,
      locale text NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text NOT NULL
    )`);
    for (const statement of workspaceScopedTableStatements('workspace_policies')) {
      await runner.query(statement);
    }
    // Seed 002's review queue: in reviewMode admin, the workspace's admins see its pending (and
    // expired) candidates — never another user's approved memories or anything else.
    await runner.query(`CREATE POLICY memories_admin_review ON memories FOR SELECT TO ${APP_ROLE}
      USING (
        workspace_id = current_setting('engram.workspace_id', true)
        AND status IN ('pending', 'expired')
        AND 'admin' = ANY (string_to_array(current_setting('engram.roles', true), ','))
        AND EXISTS (SELECT 1 FROM workspace_policies p
                     WHERE p.workspace_id = memories.workspace_id AND p.review_mode = 'admin')
      )`);
    await runner.query(
      `CREATE INDEX memories_review_queue ON memories (workspace_id, created_at, memory_id)
         WHERE status IN ('pending', 'expired')`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP POLICY memories_admin_review ON memories');
    await runner.query('DROP TABLE workspace_policies');
  }
}
