import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';
import type { WebhookEventType } from './webhook-subscriptions';

/**
 * The endpoint's signing secret, AES-256-GCM under the workspace's own data key (libs/crypto
 * `workspaceSecrets`): the deliverer opens it, the log never holds it in clear. Not a personal field:
 * it is the workspace's, sealed with a key no user's erasure destroys.
 */
export type SealedSecret = Readonly<{ v: 1; iv: string; tag: string; ct: string }>;

export type WebhookRegistered = Event<
  'WebhookRegistered',
  {
    webhookId: string;
    url: string;
    events: WebhookEventType[];
    description?: string;
    sealedSecret: SealedSecret;
    registeredBy: string;
  }
>;

export type WebhookRemoved = Event<'WebhookRemoved', { webhookId: string; removedBy: string }>;

export type WebhookEvent = WebhookRegistered | WebhookRemoved;

/**
 * No personal fields, deliberately: the URL and description are the workspace's configuration, typed
 * by its admins about their systems, and the secret is sealed by the API with the workspace's key
 * (sealing it as a personal field would use the admin's key, which their erasure would destroy).
 */
export const WEBHOOK_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'WebhookRegistered', version: 1, personalFields: [] },
  { type: 'WebhookRemoved', version: 1, personalFields: [] },
];
