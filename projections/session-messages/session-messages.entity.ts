import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One recorded message, kept for the live window of its session and for the rolling summarizer. */
@Entity({ name: 'session_messages' })
export class SessionMessage {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ name: 'message_id', type: 'text' })
  messageId!: string;

  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ name: 'role', type: 'text' })
  role!: string;

  @Column({ name: 'channel', type: 'text' })
  channel!: string;

  @Column({ name: 'text', type: 'text' })
  text!: string;

  @Column({ name: 'agent_id', type: 'text', nullable: true })
  agentId!: string | null;

  @Column({ name: 'trace_id', type: 'text', nullable: true })
  traceId!: string | null;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** Global position of the MessageRecorded event (decimal string). */
  @Column({ name: 'position', type: 'bigint' })
  position!: string;
}
