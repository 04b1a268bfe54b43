import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Locale, ReviewMode } from '@engram/domain';

/** The memory policy of each workspace that changed it (absent: the defaults). */
@Entity({ name: 'workspace_policies' })
export class WorkspacePolicy {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @Column({ name: 'review_mode', type: 'text' })
  reviewMode!: ReviewMode;

  @Column({ name: 'auto_approve_above', type: 'double precision', nullable: true })
  autoApproveAbove!: number | null;

  @Column({ name: 'pending_ttl_days', type: 'integer' })
  pendingTtlDays!: number;

  @Column({ name: 'live_window', type: 'integer' })
  liveWindow!: number;

  @Column({ name: 'summary_batch', type: 'integer' })
  summaryBatch!: number;

  @Column({ name: 'user_memory_cap', type: 'integer' })
  userMemoryCap!: number;

  @Column({ name: 'time_zone', type: 'text' })
  timeZone!: string;

  @Column({ name: 'locale', type: 'text' })
  locale!: Locale;

  /** Null: no daily LLM budget (migration LlmBudgetPolicy). */
  @Column({ name: 'llm_calls_per_user_per_day', type: 'integer', nullable: true })
  llmCallsPerUserPerDay!: number | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy!: string;
}
