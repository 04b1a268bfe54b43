import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An agent a workspace's messages came from (`agentId` on MessageRecorded): when, and how often. */
@Entity({ name: 'seen_agents' })
export class SeenAgent {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ name: 'first_seen_at', type: 'timestamptz' })
  firstSeenAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  @Column({ name: 'message_count', type: 'integer' })
  messageCount!: number;
}
