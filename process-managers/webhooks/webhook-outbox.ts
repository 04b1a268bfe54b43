import type { SealedSecret } from '@engram/domain';
import type { EntityManager } from 'typeorm';

/** One row of `webhook_deliveries` as the process manager enqueues it. */
export type NewDelivery = Readonly<{
  workspaceId: string;
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventPosition: string;
  eventType: string;
  userId: string | null;
  body: string;
  createdAt: Date;
}>;

/** A delivery whose attempt is due, with its endpoint. */
export type DueDelivery = Readonly<{
  workspaceId: string;
  deliveryId: string;
  webhookId: string;
  body: string;
  attempts: number;
  url: string;
  sealedSecret: SealedSecret;
}>;

/**
 * Enqueues deliveries, due at once. The ids derive from the event and the endpoint: a replay, a
 * restart or a second worker inserts nothing new (ON CONFLICT DO NOTHING), and nothing is lost
 * because the reactor's checkpoint moves only after this insert.
 */
export async function enqueueDeliveries(
  manager: EntityManager,
  deliveries: readonly NewDelivery[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await manager.query(
    `INSERT INTO webhook_deliveries (workspace_id, delivery_id, webhook_id, event_id, event_position,
       event_type, user_id, body, status, attempts, next_attempt_at, created_at)
     SELECT d."workspaceId", d."deliveryId", d."webhookId", d."eventId", d."eventPosition",
            d."eventType", d."userId", d.body, 'pending', 0, d."createdAt", d."createdAt"
       FROM json_to_recordset($1::json) AS d("workspaceId" text, "deliveryId" uuid,
            "webhookId" uuid, "eventId" uuid, "eventPosition" bigint, "eventType" text,
            "userId" text, body text, "createdAt" timestamptz)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(deliveries)],
  );
}

/** An erased user's deliveries are forgotten, as their read-model rows are (not the erasure's own). */
export async function forgetUserDeliveries(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await manager.query(
    `DELETE FROM webhook_deliveries
      WHERE workspace_id = $1 AND user_id = $2 AND event_type <> 'user.erased'`,
    [workspaceId, userId],
  );
}

/**
 * What waits for a removed endpoint is cancelled (kept in the log). Only a removal cancels: an
 * endpoint missing from the read model (being rebuilt) leaves its deliveries waiting.
 */
export async function cancelDeliveriesOfRemovedWebhooks(manager: EntityManager): Promise<void> {
  await manager.query(
    `UPDATE webhook_deliveries AS d SET status = 'cancelled', next_attempt_at = NULL
       FROM webhooks AS w
      WHERE d.status = 'pending' AND w.workspace_id = d.workspace_id
        AND w.webhook_id = d.webhook_id AND w.removed_at IS NOT NULL`,
  );
}

/** Due deliveries of endpoints in force, earliest first, leaving out those in flight here. */
export function findDueDeliveries(
  manager: EntityManager,
  now: Date,
  inFlight: readonly string[],
  limit: number,
): Promise<DueDelivery[]> {
  return manager.query<DueDelivery[]>(
    `SELECT d.workspace_id AS "workspaceId", d.delivery_id AS "deliveryId",
            d.webhook_id AS "webhookId", d.body, d.attempts, w.url,
            w.sealed_secret AS "sealedSecret"
       FROM webhook_deliveries AS d
       JOIN webhooks AS w ON w.workspace_id = d.workspace_id AND w.webhook_id = d.webhook_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= $1
        AND w.removed_at IS NULL AND w.sealed_secret IS NOT NULL
        AND d.delivery_id <> ALL($2::uuid[])
      ORDER BY d.next_attempt_at
      LIMIT $3`,
    [now, inFlight, limit],
  );
}

/**
 * Counts an attempt before it is made, and moves the next one to `retryAt`: a worker that dies while
 * sending leaves the delivery due again later, never lost (at least once). Compare-and-set on the
 * attempt count, so that two workers (a lease changing hands) do not both start the same attempt.
 */
export async function startAttempt(
  manager: EntityManager,
  delivery: Pick<DueDelivery, 'workspaceId' | 'deliveryId' | 'attempts'>,
  now: Date,
  retryAt: Date,
): Promise<boolean> {
  const [rows] = await manager.query<[unknown[], number]>(
    `UPDATE webhook_deliveries
        SET attempts = attempts + 1, last_attempt_at = $4, next_attempt_at = $5
      WHERE workspace_id = $1 AND delivery_id = $2 AND attempts = $3 AND status = 'pending'
      RETURNING 1`,
    [delivery.workspaceId, delivery.deliveryId, delivery.attempts, now, retryAt],
  );
  return rows.length === 1;
}

export type AttemptOutcome =
  | Readonly<{ kind: 'delivered'; statusCode: number; at: Date }>
  | Readonly<{ kind: 'retry'; statusCode: number | null; error: string | null; at: Date }>
  | Readonly<{ kind: 'failed'; statusCode: number | null; error: string | null }>;

/** What the attempt gave: delivered, to be retried at `at` (set when it started), or failed for good. */
export async function recordOutcome(
  manager: EntityManager,
  delivery: Pick<DueDelivery, 'workspaceId' | 'deliveryId'>,
  outcome: AttemptOutcome,
): Promise<void> {
  const status =
    outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' ? 'failed' : 'pending';
  await manager.query(
    `UPDATE webhook_deliveries
        SET status = $3, last_status_code = $4, last_error = $5,
            delivered_at = $6, next_attempt_at = $7
      WHERE workspace_id = $1 AND delivery_id = $2 AND status = 'pending'`,
    [
      delivery.workspaceId,
      delivery.deliveryId,
      status,
      outcome.statusCode,
      outcome.kind === 'delivered' ? null : outcome.error,
      outcome.kind === 'delivered' ? outcome.at : null,
      outcome.kind === 'retry' ? outcome.at : null,
    ],
  );
}
