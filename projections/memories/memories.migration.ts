import type { MigrationInterface, QueryRunner } from 'typeorm';
import { userScopedTableStatements } from '@engram/database';

export class Memories1764400002002 implements MigrationInterface {
  name = 'Memories1764400002002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE memories (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      memory_id text NOT NULL,
      kind text NOT NULL,
      content text,
      normalized_content text,
      confidence double precision NOT NULL,
      status text NOT NULL
        CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'evicted', 'deleted')),
      source_message_id text NOT NULL,
      source_excerpt text,
      session_id text NOT NULL,
      due_at timestamptz,
      generation integer NOT NULL,
      created_at timestamptz NOT NULL,
      decided_at timestamptz,
      decided_by jsonb,
      rejection_reason text,
      last_seen_at timestamptz NOT NULL,
      last_used_at timestamptz,
      seen_count integer NOT NULL,
      position bigint NOT NULL,
      PRIMARY KEY (workspace_id, user_id, memory_id)
    )`);
    await runner.query(
      'CREATE INDEX memories_by_status ON memories (workspace_id, user_id, status, kind)',
    );
    for (const statement of userScopedTableStatements('memories')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE memories');
  }
}
