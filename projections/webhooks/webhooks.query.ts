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

/**
 * The endpoints an event at `position` goes to: in force, subscribed to `type`, and registered before
 * the event (an endpoint receives what happens after it exists, the same in a replay).
 */
export function findSubscribedWebhooks(
  manager: EntityManager,
  workspaceId: string,
  type: WebhookEventType,
  position: bigint,
): Promise<Pick<Webhook, 'webhookId'>[]> {
  return manager
    .createQueryBuilder(Webhook, 'w')
    .select('w.webhookId', 'webhookId')
    .where('w.workspaceId = :workspaceId', { workspaceId })
    .andWhere('w.removedAt IS NULL')
    .andWhere(':type = ANY(w.events)', { type })
    .andWhere('w.registeredPosition < :position', { position: position.toString() })
    .orderBy('w.webhookId')
    .getRawMany<Pick<Webhook, 'webhookId'>>();
}
