import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BudgetedPurpose } from '@engram/domain';

/**
 * Work held back by the daily LLM budget and not run yet: the user sees it (GET /v1/me/llm-usage,
 * the console), and the deferred-work job runs each once `until` has passed.
 */
@Entity({ name: 'llm_deferrals' })
export class LlmDeferral {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ name: 'purpose', type: 'text' })
  purpose!: BudgetedPurpose;

  /** `message/{messageId}` or `session/{sessionId}` */
  @PrimaryColumn({ name: 'cause', type: 'text' })
  cause!: string;

  /** The message the held-back reaction was to: the job reacts to it again. */
  @Column({ name: 'message_id', type: 'text' })
  messageId!: string;

  /** Extraction: the user's wipe generation when it was held back. */
  @Column({ name: 'generation', type: 'integer', nullable: true })
  generation!: number | null;

  @Column({ name: 'budget_limit', type: 'integer' })
  limit!: number;

  @Column({ name: 'deferred_at', type: 'timestamptz' })
  deferredAt!: Date;

  @Column({ name: 'until', type: 'timestamptz' })
  until!: Date;

  /** The deferral's position: the job runs the oldest first. */
  @Column({ name: 'position', type: 'bigint' })
  position!: string;
}
