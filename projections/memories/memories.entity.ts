import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DecidedBy, MemoryKind, MemoryStatus } from '@engram/domain';

/** The statuses a stored memory can have (`absent` is the decider's "no such memory"). */
export type MemoryRecordStatus = Exclude<MemoryStatus, 'absent'>;

export const MEMORY_RECORD_STATUSES: readonly MemoryRecordStatus[] = [
  'pending',
  'approved',
  'rejected',
  'expired',
  'evicted',
  'deleted',
  'superseded',
];

/** One memory of a user, its review status and how often it was seen and used. */
@Entity({ name: 'memories' })
export class MemoryRecord {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ name: 'memory_id', type: 'text' })
  memoryId!: string;

  @Column({ name: 'kind', type: 'text' })
  kind!: MemoryKind;

  /** Null once the memory is deleted: the read model forgets the text. */
  @Column({ name: 'content', type: 'text', nullable: true })
  content!: string | null;

  @Column({ name: 'normalized_content', type: 'text', nullable: true })
  normalizedContent!: string | null;

  @Column({ name: 'confidence', type: 'double precision' })
  confidence!: number;

  @Column({ name: 'status', type: 'text' })
  status!: MemoryRecordStatus;

  @Column({ name: 'source_message_id', type: 'text' })
  sourceMessageId!: string;

  @Column({ name: 'source_excerpt', type: 'text', nullable: true })
  sourceExcerpt!: string | null;

  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ name: 'due_at', type: 'timestamptz', nullable: true })
  dueAt!: Date | null;

  @Column({ name: 'generation', type: 'integer' })
  generation!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'decided_by', type: 'jsonb', nullable: true })
  decidedBy!: DecidedBy | null;

  /** The cap may evict it (`isEvictableByCap`): an approved fact an admin did not approve. */
  @Column({ name: 'evictable', type: 'boolean', default: false })
  evictable!: boolean;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason!: string | null;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'seen_count', type: 'integer' })
  seenCount!: number;

  /** The memory this one replaces once approved (its detection said so). */
  @Column({ name: 'supersedes', type: 'text', nullable: true })
  supersedes!: string | null;

  /** Set once superseded: the newer memory that replaced this one. */
  @Column({ name: 'superseded_by', type: 'text', nullable: true })
  supersededBy!: string | null;

  /** Global position of the last event applied to this memory. */
  @Column({ name: 'position', type: 'bigint' })
  position!: string;
}
