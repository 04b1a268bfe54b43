import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user's memory switch, pause and wipe generation; no row means the defaults. */
@Entity({ name: 'memory_settings' })
export class MemorySettings {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'enabled', type: 'boolean' })
  enabled!: boolean;

  @Column({ name: 'paused_until', type: 'timestamptz', nullable: true })
  pausedUntil!: Date | null;

  /** The current wipe generation: memories of earlier generations were wiped. */
  @Column({ name: 'generation', type: 'integer', default: 0 })
  generation!: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
