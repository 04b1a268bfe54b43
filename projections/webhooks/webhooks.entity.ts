import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SealedSecret, WebhookEventType } from '@engram/domain';

/**
 * The webhook endpoints of each workspace, removed ones kept (with `removedAt`, their secret dropped):
 * the deliverer tells "removed" (cancel what waits) from "not projected yet" (a rebuild: wait).
 */
@Entity({ name: 'webhooks' })
export class Webhook {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'webhook_id', type: 'uuid' })
  webhookId!: string;

  @Column({ name: 'url', type: 'text' })
  url!: string;

  @Column({ name: 'events', type: 'text', array: true })
  events!: WebhookEventType[];

  @Column({ name: 'description', type: 'text', nullable: true })
  description!: string | null;

  /** As in the event: sealed under the workspace's key; null once removed. */
  @Column({ name: 'sealed_secret', type: 'jsonb', nullable: true })
  sealedSecret!: SealedSecret | null;

  @Column({ name: 'registered_at', type: 'timestamptz' })
  registeredAt!: Date;

  @Column({ name: 'registered_by', type: 'text' })
  registeredBy!: string;

  /**
   * Global position of WebhookRegistered: an endpoint receives the events after it, not the history
   * before it (whatever the moment the process manager reacts, in a replay too).
   */
  @Column({ name: 'registered_position', type: 'bigint' })
  registeredPosition!: string;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt!: Date | null;

  @Column({ name: 'removed_by', type: 'text', nullable: true })
  removedBy!: string | null;
}
