import type { ActivityDetails } from '@engram/prompt-blocks';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One event of a user's history as the activity feed shows it: structured fields, no full text. */
@Entity({ name: 'activity_events' })
export class ActivityEvent {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** Global position of the event (decimal string). */
  @PrimaryColumn({ name: 'position', type: 'bigint' })
  position!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** The event's own channel (data.channel), else the request's (metadata.channel). */
  @Column({ name: 'channel', type: 'text', nullable: true })
  channel!: string | null;

  @Column({ name: 'trace_id', type: 'text', nullable: true })
  traceId!: string | null;

  /** The trace id, or `event:{position}` for an event without a trace (a group of one). */
  @Column({ name: 'group_key', type: 'text' })
  groupKey!: string;

  /**
   * What happened, in structured fields (`ActivityEntry` less its type, libs/prompt-blocks): the
   * API writes the line from them in the reader's language.
   */
  @Column({ name: 'details', type: 'jsonb' })
  details!: ActivityDetails;

  /** The action an Action* event is about (the feed names the action in its group's title). */
  @Column({ name: 'action_id', type: 'text', nullable: true })
  actionId!: string | null;
}
