import type { MigrationInterface, QueryRunner } from 'typeorm';
import { workspaceScopedTableStatements } from '@engram/database';

/**
 * The webhooks' outbox and delivery log: one row per (event, endpoint), inserted by the webhooks
 * process manager (its id derives from both, so a replay inserts nothing new) and updated by the
 * delivery job at each attempt. Not a projection's table: a rebuild leaves it alone (what was
 * delivered stays delivered). Workspace-level RLS like the endpoints: the API reads it as the caller.
 */
export class WebhookDeliveries1764400021901 implements MigrationInterface {
  name = 'WebhookDeliveries1764400021901';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE webhook_deliveries (
      workspace_id text NOT NULL,
      delivery_id uuid NOT NULL,
      webhook_id uuid NOT NULL,
      event_id uuid NOT NULL,
      event_position bigint NOT NULL,
      event_type text NOT NULL,
      user_id text,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      delivered_at timestamptz,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (workspace_id, delivery_id)
    )`);
    // The job's work list: what is due, earliest first.
    await runner.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
      WHERE status = 'pending'`);
    // The delivery log of one endpoint, newest event first (the page's cursor).
    await runner.query(`CREATE UNIQUE INDEX webhook_deliveries_log
      ON webhook_deliveries (workspace_id, webhook_id, event_position DESC)`);
    // Erasure forgets a user's deliveries.
    await runner.query(
      'CREATE INDEX webhook_deliveries_user ON webhook_deliveries (workspace_id, user_id)',
    );
    for (const statement of workspaceScopedTableStatements('webhook_deliveries')) {
      await runner.query(statement);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_deliveries');
  }
}
