import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LlmCallPurpose } from '@engram/domain';

/**
 * A user's LLM calls of one day (in the workspace policy's time zone) for one purpose: counts,
 * tokens, time and the engines that answered. Counts and model names only: no content at all, which
 * is why the workspace's admins may read it (its migration).
 */
@Entity({ name: 'llm_usage' })
export class LlmUsage {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** yyyy-mm-dd */
  @PrimaryColumn({ name: 'day', type: 'text' })
  day!: string;

  @PrimaryColumn({ name: 'purpose', type: 'text' })
  purpose!: LlmCallPurpose;

  @Column({ name: 'calls', type: 'integer', default: 0 })
  calls!: number;

  /** Calls whose outcome was not ok (invalid answers and failures). */
  @Column({ name: 'failures', type: 'integer', default: 0 })
  failures!: number;

  @Column({ name: 'prompt_tokens', type: 'bigint', default: '0' })
  promptTokens!: string;

  @Column({ name: 'completion_tokens', type: 'bigint', default: '0' })
  completionTokens!: string;

  /** The calls' latencies added up. */
  @Column({ name: 'latency_ms', type: 'bigint', default: '0' })
  latencyMs!: string;

  /** Model names (or `offline-rules`), sorted. */
  @Column({ name: 'engines', type: 'text', array: true, default: () => "'{}'" })
  engines!: string[];

  /** Work held back that day because the budget was spent. */
  @Column({ name: 'deferred', type: 'integer', default: 0 })
  deferred!: number;
}
