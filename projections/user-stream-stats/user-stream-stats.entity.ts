import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many events each user has, and when the first and last happened. */
@Entity({ name: 'user_stream_stats' })
export class UserStreamStats {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'event_count', type: 'integer' })
  eventCount!: number;

  @Column({ name: 'message_count', type: 'integer' })
  messageCount!: number;

  @Column({ name: 'first_event_at', type: 'timestamptz' })
  firstEventAt!: Date;

  @Column({ name: 'last_event_at', type: 'timestamptz' })
  lastEventAt!: Date;

  @Column({ name: 'last_position', type: 'bigint' })
  lastPosition!: string;
}
