import { deterministicId, type MemoryApproved } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import {
  WORKSPACE_OWNER,
  findWebhooksInForce,
  partitionNameFor,
  subscribedWebhooks,
  webhooksProjection,
  type WebhookInForce,
} from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import type { Reactor } from '../runner/reactor';
import { VersionedCache } from '../versioned-cache';
import { waitForProjections } from '../runner/wait-for-projections';
import { enqueueDeliveries, forgetUserDeliveries } from './webhook-outbox';
import {
  WEBHOOK_SOURCE_TYPES,
  webhookNotification,
  type WebhookSource,
} from './webhook-notification';

/**
 * Whether a detected candidate waits for a reviewer: the policy's approval at once is appended with
 * the detection, as the next event of its stream, so the stream says it the same in every replay
 * (a read model would say what became of the memory since).
 */
async function awaitsReview(
  deps: Pick<ProcessManagerDependencies, 'store' | 'codec'>,
  event: DecodedEvent<WebhookSource>,
): Promise<boolean> {
  const [next] = await deps.store.readStream(event.streamId, {
    fromRevision: event.streamRevision + 1n,
    maxCount: 1,
  });
  if (next?.type !== 'MemoryApproved') return true;
  const approved = await deps.codec.decode<MemoryApproved>(next);
  return approved.event.data.by.kind !== 'policy';
}

/**
 * The webhooks process manager: for each event subscribers may hear of (`webhookNotification`), one
 * delivery per endpoint of the workspace subscribed to it and registered before it, in the outbox
 * that the delivery job sends. Driven by the log from its checkpoint, like every reactor: an event
 * is enqueued before the checkpoint passes it (nothing missed across restarts), and the delivery id
 * derives from the event and the endpoint (a replay enqueues nothing twice).
 */
export function webhooksReactor(deps: ProcessManagerDependencies): Reactor<WebhookSource> {
  const inForce = webhooksInForce(deps);
  return {
    name: 'webhooks',
    handles: WEBHOOK_SOURCE_TYPES,
    react: async (event, signal) => {
      const { workspaceId, userId, occurredAt } = event.metadata;
      const manager = deps.dataSource.manager;
      if (event.event.type === 'UserErased') {
        await forgetUserDeliveries(manager, workspaceId, userId);
      }
      await waitForProjections(
        deps,
        [webhooksProjection.name],
        { workspaceId, userId },
        event.globalPosition,
        signal,
      );
      // Most workspaces have no endpoint: then nothing more is read, not even the candidate's stream.
      const endpointsInForce = await inForce(workspaceId);
      if (!endpointsInForce.some((webhook) => webhook.registeredPosition < event.globalPosition)) {
        return;
      }
      const review =
        event.event.type === 'MemoryCandidateDetected' && (await awaitsReview(deps, event));
      const notification = webhookNotification(event, review);
      if (!notification) return;
      const endpoints = subscribedWebhooks(
        endpointsInForce,
        notification.type,
        event.globalPosition,
      );
      const createdAt = deps.clock.now().toJSDate();
      await enqueueDeliveries(
        manager,
        endpoints.map(({ webhookId }) => {
          const deliveryId = deterministicId('webhook-delivery', event.eventId, webhookId);
          return {
            workspaceId,
            deliveryId,
            webhookId,
            eventId: event.eventId,
            eventPosition: event.globalPosition.toString(),
            eventType: notification.type,
            userId,
            body: JSON.stringify({
              id: deliveryId,
              type: notification.type,
              occurredAt,
              workspaceId,
              userId,
              data: notification.data,
            }),
            createdAt,
          };
        }),
      );
    },
  };
}

/**
 * The workspace's endpoints in force, kept while the webhooks projection, run in this worker, has
 * applied no event of that workspace's partition since (`VersionedCache`): every memory event
 * read them, though endpoints change rarely. Run in another worker, they are read every time.
 */
function webhooksInForce(
  deps: ProcessManagerDependencies,
): (workspaceId: string) => Promise<readonly WebhookInForce[]> {
  const cache = new VersionedCache<readonly WebhookInForce[]>(10_000);
  const partitions = deps.partitions ?? 1;
  return (workspaceId) =>
    cache.get(
      workspaceId,
      () =>
        deps.committed?.rowsVersionOf(
          partitionNameFor(
            webhooksProjection.name,
            { workspaceId, userId: WORKSPACE_OWNER },
            partitions,
          ),
        ),
      () => findWebhooksInForce(deps.dataSource.manager, workspaceId),
    );
}
