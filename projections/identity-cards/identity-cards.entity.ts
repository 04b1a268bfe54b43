import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's identity card (markdown generated from their approved memories) and whether it is stale:
 * `dirtyPosition` is the last event that changed the approved memories, `basedOnPosition` the last one
 * the card reflects.
 */
@Entity({ name: 'identity_cards' })
export class IdentityCard {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'markdown', type: 'text', default: '' })
  markdown!: string;

  @Column({ name: 'memory_count', type: 'integer', default: 0 })
  memoryCount!: number;

  /** '-1' until a card is generated. */
  @Column({ name: 'based_on_position', type: 'bigint', default: '-1' })
  basedOnPosition!: string;

  @Column({ name: 'model', type: 'text', nullable: true })
  model!: string | null;

  @Column({ name: 'generated_at', type: 'timestamptz', nullable: true })
  generatedAt!: Date | null;

  @Column({ name: 'dirty_position', type: 'bigint', nullable: true })
  dirtyPosition!: string | null;

  @Column({ name: 'dirty_at', type: 'timestamptz', nullable: true })
  dirtyAt!: Date | null;

  /**
   * Position of the user's last wipe: a card generated from memories older than it (a regeneration
   * that raced the wipe) is ignored, so wiped memories never come back through the card.
   */
  @Column({ name: 'wiped_position', type: 'bigint', nullable: true })
  wipedPosition!: string | null;
}
