import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One conversation session: how many messages it has, and its rolling summary. */
@Entity({ name: 'sessions' })
export class Session {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ name: 'message_count', type: 'integer' })
  messageCount!: number;

  /** How many messages the rolling summary covers. */
  @Column({ name: 'summarized_count', type: 'integer', default: 0 })
  summarizedCount!: number;

  /** Global position of the last message the summary covers ('0': none yet). */
  @Column({ name: 'summarized_through_position', type: 'bigint', default: '0' })
  summarizedThroughPosition!: string;

  @Column({ name: 'rolling_summary', type: 'text', default: '' })
  rollingSummary!: string;

  @Column({ name: 'summary_model', type: 'text', nullable: true })
  summaryModel!: string | null;

  @Column({ name: 'summary_updated_at', type: 'timestamptz', nullable: true })
  summaryUpdatedAt!: Date | null;

  @Column({ name: 'first_message_at', type: 'timestamptz' })
  firstMessageAt!: Date;

  @Column({ name: 'last_message_at', type: 'timestamptz' })
  lastMessageAt!: Date;

  /** Global position of the session's last message. */
  @Column({ name: 'last_position', type: 'bigint' })
  lastPosition!: string;
}
