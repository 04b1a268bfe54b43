import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ActionStatus } from '@engram/domain';

/** One step of an action's life: the status it reached, on which channel, and when (ISO). */
export type ActionStep = Readonly<{ status: ActionStatus; channel: string | null; at: string }>;

/** One action an assistant proposed to a user, where it stands and how it got there. */
@Entity({ name: 'actions' })
export class ActionRecord {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ name: 'action_id', type: 'text' })
  actionId!: string;

  /** The trace of the proposal (metadata.traceId of ActionProposed). */
  @Column({ name: 'trace_id', type: 'text', nullable: true })
  traceId!: string | null;

  @Column({ name: 'tool', type: 'text' })
  tool!: string;

  @Column({ name: 'target', type: 'text', nullable: true })
  target!: string | null;

  @Column({ name: 'summary', type: 'text' })
  summary!: string;

  @Column({ name: 'input', type: 'jsonb', nullable: true })
  input!: Record<string, unknown> | null;

  @Column({ name: 'status', type: 'text' })
  status!: ActionStatus;

  /** The channel the action was asked on (the proposal's channel). */
  @Column({ name: 'requested_via', type: 'text' })
  requestedVia!: string;

  @Column({ name: 'requires_confirmation', type: 'boolean' })
  requiresConfirmation!: boolean;

  /** One entry per event, oldest first. */
  @Column({ name: 'steps', type: 'jsonb' })
  steps!: ActionStep[];

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'executed_at', type: 'timestamptz', nullable: true })
  executedAt!: Date | null;

  @Column({ name: 'result', type: 'jsonb', nullable: true })
  result!: Record<string, unknown> | null;

  @Column({ name: 'error', type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'abort_reason', type: 'text', nullable: true })
  abortReason!: string | null;

  /** normalizeContent of tool, target, summary and the JSON of input: accent- and case-insensitive search. */
  @Column({ name: 'search_text', type: 'text' })
  searchText!: string;

  /** Global position of the last event applied to this action. */
  @Column({ name: 'position', type: 'bigint' })
  position!: string;
}
