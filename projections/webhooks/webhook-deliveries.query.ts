import type { EntityManager } from 'typeorm';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One line of an endpoint's delivery log (the body stays in the outbox). */
export type WebhookDeliveryRecord = Readonly<{
  deliveryId: string;
  eventId: string;
  eventType: string;
  eventPosition: string;
  userId: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}>;

/**
 * An endpoint's deliveries, newest event first: `before` (an event position, the last of the
 * previous page) pages through them. A plain statement: the table is the process manager's outbox,
 * not a projection's entity; RLS keeps it to the caller's workspace.
 */
export function listWebhookDeliveries(
  manager: EntityManager,
  workspaceId: string,
  webhookId: string,
  page: Readonly<{ before?: string | undefined; limit: number }>,
): Promise<WebhookDeliveryRecord[]> {
  return manager.query<WebhookDeliveryRecord[]>(
    `SELECT delivery_id AS "deliveryId", event_id AS "eventId", event_type AS "eventType",
            event_position AS "eventPosition", user_id AS "userId", status, attempts,
            next_attempt_at AS "nextAttemptAt", last_attempt_at AS "lastAttemptAt",
            last_status_code AS "lastStatusCode", last_error AS "lastError",
            delivered_at AS "deliveredAt", created_at AS "createdAt"
       FROM webhook_deliveries
      WHERE workspace_id = $1 AND webhook_id = $2
        AND ($3::bigint IS NULL OR event_position < $3::bigint)
      ORDER BY event_position DESC
      LIMIT $4`,
    [workspaceId, webhookId, page.before ?? null, page.limit],
  );
}
