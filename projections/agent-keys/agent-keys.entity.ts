import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The service keys of a workspace's agents: the digest of each secret, never the secret. */
@Entity({ name: 'agent_keys' })
export class AgentKey {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'key_id', type: 'text' })
  keyId!: string;

  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  /** SHA-256 of the secret, hex. */
  @Column({ type: 'text' })
  digest!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy!: string;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'revoked_by', type: 'text', nullable: true })
  revokedBy!: string | null;
}
