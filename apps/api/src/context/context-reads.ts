import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from '@engram/domain';
import {
  isoInstantSql as iso,
  toMemoryPolicy,
  type IsoInstant,
  type MemoryRecord,
  type WorkspacePolicy,
} from '@engram/projections';
import { RECENT_ACTIONS_DEFAULTS } from '@engram/prompt-blocks';
import type { ActionRow } from '../actions/action-view';
import type { SqlValue } from '../read-models/query-as';

export type ContextMessageRow = Readonly<{
  messageId: string;
  role: string;
  text: string;
  occurredAt: IsoInstant;
  channel: string;
}>;

export type ContextMemoryRow = Readonly<{
  memoryId: string;
  kind: MemoryRecord['kind'];
  content: string | null;
  dueAt: IsoInstant | null;
  lastUsedAt: IsoInstant | null;
  lastSeenAt: IsoInstant;
  seenCount: number;
}>;

export type ContextRows = Readonly<{
  policy: MemoryPolicy;
  settings: Readonly<{ enabled: boolean; pausedUntil: IsoInstant | null }> | null;
  /** False when an admin switched memory off for the agent that asked. */
  agentEnabled: boolean;
  session: Readonly<{ rollingSummary: string }> | null;
  /** The live window, oldest first. */
  window: ContextMessageRow[];
  /** Approved memories, oldest first. */
  memories: ContextMemoryRow[];
  card: Readonly<{ markdown: string }> | null;
  /** The newest actions, newest first: as many as the recent-actions block may show. */
  actions: ActionRow<IsoInstant>[];
}>;

/**
 * Everything a context reads, in one statement (one round trip instead of eight): each read model is
 * a scalar subquery on its primary key or index, rows come back as JSON objects holding only what
 * the context uses, named as in TypeScript, timestamps already ISO strings (`iso`). The live
 * window's length comes from the workspace policy inside the same statement.
 */
const CONTEXT_READS_SQL = `
SELECT
  (SELECT json_build_object(
     'reviewMode', p.review_mode, 'autoApproveAbove', p.auto_approve_above,
     'pendingTtlDays', p.pending_ttl_days, 'liveWindow', p.live_window,
     'summaryBatch', p.summary_batch, 'userMemoryCap', p.user_memory_cap,
     'timeZone', p.time_zone, 'locale', p.locale,
     'llmCallsPerUserPerDay', p.llm_calls_per_user_per_day)
    FROM workspace_policies p WHERE p.workspace_id = $1) AS policy,
  (SELECT json_build_object('enabled', s.enabled, 'pausedUntil', ${iso('s.paused_until')})
    FROM memory_settings s WHERE s.workspace_id = $1 AND s.user_id = $2) AS settings,
  (SELECT a.memory_enabled FROM agent_settings a
    WHERE a.workspace_id = $1 AND a.agent_id = $4) AS agent_enabled,
  (SELECT json_build_object('rollingSummary', x.rolling_summary) FROM sessions x
    WHERE x.workspace_id = $1 AND x.user_id = $2 AND x.session_id = $3) AS session,
  (SELECT coalesce(json_agg(json_build_object(
     'messageId', w.message_id, 'role', w.role, 'text', w.text,
     'occurredAt', ${iso('w.occurred_at')}, 'channel', w.channel) ORDER BY w.position), '[]') FROM (
     SELECT * FROM session_messages m
      WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.session_id = $3
      ORDER BY m.position DESC
      LIMIT coalesce((SELECT live_window FROM workspace_policies WHERE workspace_id = $1), $5)
   ) w) AS live_window,
  (SELECT coalesce(json_agg(json_build_object(
     'memoryId', m.memory_id, 'kind', m.kind, 'content', m.content,
     'dueAt', ${iso('m.due_at')}, 'lastUsedAt', ${iso('m.last_used_at')},
     'lastSeenAt', ${iso('m.last_seen_at')}, 'seenCount', m.seen_count)
     ORDER BY m.created_at, m.memory_id), '[]') FROM memories m
    WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.status = 'approved') AS memories,
  (SELECT json_build_object('markdown', c.markdown) FROM identity_cards c
    WHERE c.workspace_id = $1 AND c.user_id = $2) AS card,
  (SELECT coalesce(json_agg(json_build_object(
     'actionId', r.action_id, 'traceId', r.trace_id, 'tool', r.tool, 'target', r.target,
     'summary', r.summary, 'status', r.status, 'requestedVia', r.requested_via, 'steps', r.steps,
     'createdAt', ${iso('r.created_at')}, 'expiresAt', ${iso('r.expires_at')})
     ORDER BY r.created_at DESC, r.action_id DESC), '[]') FROM (
     SELECT * FROM actions t WHERE t.workspace_id = $1 AND t.user_id = $2
      ORDER BY t.created_at DESC, t.action_id DESC LIMIT $6
   ) r) AS actions`;

type RawContextRows = {
  policy: Omit<WorkspacePolicy, 'workspaceId' | 'updatedAt' | 'updatedBy'> | null;
  settings: ContextRows['settings'];
  agent_enabled: boolean | null;
  session: ContextRows['session'];
  live_window: ContextRows['window'];
  memories: ContextRows['memories'];
  card: ContextRows['card'];
  actions: ContextRows['actions'];
};

/** Runs one statement under the caller's identity (`ReadModels.query`). */
export type RunStatement = <T extends object>(
  sql: string,
  params: readonly SqlValue[],
) => Promise<T[]>;

export async function readContextRows(
  run: RunStatement,
  owner: Readonly<{ workspaceId: string; userId: string }>,
  query: Readonly<{ sessionId?: string | undefined; agentId?: string | undefined }>,
): Promise<ContextRows> {
  const [raw] = await run<RawContextRows>(CONTEXT_READS_SQL, [
    owner.workspaceId,
    owner.userId,
    query.sessionId ?? null,
    query.agentId ?? null,
    DEFAULT_MEMORY_POLICY.liveWindow,
    RECENT_ACTIONS_DEFAULTS.maxLines,
  ]);
  return {
    policy: toMemoryPolicy(raw!.policy),
    settings: raw!.settings,
    agentEnabled: raw!.agent_enabled ?? true,
    session: raw!.session,
    window: raw!.live_window,
    memories: raw!.memories,
    card: raw!.card,
    actions: raw!.actions,
  };
}
