import { IsNull, type EntityManager } from 'typeorm';
import type { WebhookEventType } from '@engram/domain';
import { Webhook } from './webhooks.entity';

/** The workspace's endpoints in force, oldest first. */
export function listWebhooks(manager: EntityManager, workspaceId: string): Promise<Webhook[]> {
  return manager.find(Webhook, {
    where: { workspaceId, removedAt: IsNull() },
    order: { registeredAt: 'ASC', webhookId: 'ASC' },
  });
}

/** One endpoint, removed or not; null when unknown (or, under RLS, of another workspace). */
export function findWebhook(
  manager: EntityManager,
  workspaceId: string,
  webhookId: string,
): Promise<Webhook | null> {
  return manager.findOne(Webhook, { where: { workspaceId, webhookId } });
}

/** An endpoint in force, as the webhooks process manager matches events against it. */
export type WebhookInForce = Readonly<{
  webhookId: string;
  events: readonly WebhookEventType[];
  /** The log position of its registration: it receives the events after it. */
  registeredPosition: bigint;
}>;

/** The workspace's endpoints in force, by id: what `subscribedWebhooks` chooses from. */
export async function findWebhooksInForce(
  manager: EntityManager,
  workspaceId: string,
): Promise<WebhookInForce[]> {
  const rows = await manager.find(Webhook, {
    where: { workspaceId, removedAt: IsNull() },
    order: { webhookId: 'ASC' },
  });
  return rows.map((row) => ({
    webhookId: row.webhookId,
    events: row.events,
    registeredPosition: BigInt(row.registeredPosition),
  }));
}

/**
 * The endpoints an event at `position` goes to: subscribed to `type`, and registered before the
 * event (an endpoint receives what happens after it exists, the same in a replay).
 */
export function subscribedWebhooks(
  inForce: readonly WebhookInForce[],
  type: WebhookEventType,
  position: bigint,
): WebhookInForce[] {
  return inForce.filter(
    (webhook) => webhook.registeredPosition < position && webhook.events.includes(type),
  );
}
