import { assertNever } from '@engram/domain';
import type { HandledBy, Projection } from '../runner/projection';
import { Webhook } from './webhooks.entity';

const HANDLES = ['WebhookRegistered', 'WebhookRemoved'] as const;

export const webhooksProjection: Projection<Webhook, HandledBy<typeof HANDLES>> = {
  name: 'webhooks',
  entity: Webhook,
  key: ['workspaceId', 'webhookId'],
  handles: HANDLES,
  keysOf: (event) => [
    { workspaceId: event.metadata.workspaceId, webhookId: event.event.data.webhookId },
  ],
  apply: (event, rows) => {
    const workspaceId = event.metadata.workspaceId;
    switch (event.event.type) {
      case 'WebhookRegistered': {
        const { webhookId, url, events, description, sealedSecret, registeredBy } =
          event.event.data;
        return [
          {
            kind: 'upsert',
            row: {
              workspaceId,
              webhookId,
              url,
              events: [...events],
              description: description ?? null,
              sealedSecret,
              registeredAt: new Date(event.metadata.occurredAt),
              registeredBy,
              registeredPosition: event.globalPosition.toString(),
              removedAt: null,
              removedBy: null,
            },
          },
        ];
      }
      case 'WebhookRemoved': {
        const { webhookId, removedBy } = event.event.data;
        const row = rows.get({ workspaceId, webhookId });
        if (!row) return [];
        return [
          {
            kind: 'upsert',
            row: {
              ...row,
              sealedSecret: null,
              removedAt: new Date(event.metadata.occurredAt),
              removedBy,
            },
          },
        ];
      }
      default:
        return assertNever(event.event);
    }
  },
};
