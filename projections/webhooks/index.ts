import { readModel } from '../read-model';
import { WebhookDeliveries1764400021901 } from './webhook-deliveries.migration';
import { Webhook } from './webhooks.entity';
import { Webhooks1764400021900 } from './webhooks.migration';
import { webhooksProjection } from './webhooks.projection';

export * from './webhooks.entity';
export * from './webhooks.projection';
export * from './webhooks.query';
export * from './webhook-deliveries.query';

/**
 * The endpoints (a projection) and, with their migrations, the outbox the webhooks process manager
 * writes (`webhook_deliveries`): the two tables share the workspace's RLS and the delivery log's reads.
 */
export const webhooksReadModel = readModel({
  projection: webhooksProjection,
  entity: Webhook,
  migrations: [Webhooks1764400021900, WebhookDeliveries1764400021901],
});
