import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Agents whose memory was switched (absent: memory enabled). */
@Entity({ name: 'agent_settings' })
export class AgentSetting {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ name: 'memory_enabled', type: 'boolean' })
  memoryEnabled!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy!: string;
}
