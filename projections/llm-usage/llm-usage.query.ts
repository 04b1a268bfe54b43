import { BUDGETED_PURPOSES, type LlmCallPurpose } from '@engram/domain';
import { In, MoreThanOrEqual, type EntityManager } from 'typeorm';
import { LlmUsage } from './llm-usage.entity';

export type LlmUsageTotals = Readonly<{
  calls: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  deferred: number;
  engines: readonly string[];
}>;

/** A user's rows from `fromDay` (yyyy-mm-dd) on, newest day first; RLS keeps them the caller's own. */
export async function findLlmUsageSince(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  fromDay: string,
): Promise<LlmUsage[]> {
  return manager.find(LlmUsage, {
    where: { workspaceId, userId, day: MoreThanOrEqual(fromDay) },
    order: { day: 'DESC', purpose: 'ASC' },
  });
}

/** The extraction and summary calls of one user's day: what the daily budget counts. */
export async function countBudgetedCalls(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  day: string,
): Promise<number> {
  const total = await manager.sum(LlmUsage, 'calls', {
    workspaceId,
    userId,
    day,
    purpose: In([...BUDGETED_PURPOSES]),
  });
  return total ?? 0;
}

export type PurposeUsage = LlmUsageTotals & Readonly<{ purpose: LlmCallPurpose }>;
export type UserPurposeUsage = PurposeUsage & Readonly<{ userId: string }>;

/** The sums of a group of rows, and the engines of the same rows (`sameGroup` names them). */
const sums = (sameGroup: string) => `sum(l.calls)::integer AS calls,
  sum(l.failures)::integer AS failures, sum(l.prompt_tokens)::text AS prompt_tokens,
  sum(l.completion_tokens)::text AS completion_tokens, sum(l.latency_ms)::text AS latency_ms,
  sum(l.deferred)::integer AS deferred,
  (SELECT coalesce(array_agg(DISTINCT engine ORDER BY engine), '{}')
     FROM llm_usage x CROSS JOIN unnest(x.engines) AS engine
    WHERE x.workspace_id = l.workspace_id AND x.purpose = l.purpose AND x.day >= $2
      AND ${sameGroup}) AS engines`;

type SumRow = Readonly<{
  user_id?: string;
  purpose: LlmCallPurpose;
  calls: number;
  failures: number;
  prompt_tokens: string;
  completion_tokens: string;
  latency_ms: string;
  deferred: number;
  engines: string[];
}>;

const totalsOf = (row: SumRow): PurposeUsage => ({
  purpose: row.purpose,
  calls: row.calls,
  failures: row.failures,
  promptTokens: Number(row.prompt_tokens),
  completionTokens: Number(row.completion_tokens),
  latencyMs: Number(row.latency_ms),
  deferred: row.deferred,
  engines: row.engines,
});

/**
 * Totals by user and purpose since `fromDay`, for one page of users in id order (those after
 * `afterUserId`). Only a workspace admin sees other users' rows (the table's admin policy); anyone
 * else gets their own.
 */
export async function findWorkspaceLlmUsage(
  manager: EntityManager,
  workspaceId: string,
  fromDay: string,
  page: Readonly<{ afterUserId?: string | undefined; limit: number }>,
): Promise<UserPurposeUsage[]> {
  const rows = await manager.query<SumRow[]>(
    `WITH page AS (
       SELECT DISTINCT user_id FROM llm_usage
        WHERE workspace_id = $1 AND day >= $2 AND ($3::text IS NULL OR user_id > $3)
        ORDER BY user_id LIMIT $4)
     SELECT l.user_id, l.purpose, ${sums('x.user_id = l.user_id')}
       FROM llm_usage l JOIN page USING (user_id)
      WHERE l.workspace_id = $1 AND l.day >= $2
      GROUP BY l.workspace_id, l.user_id, l.purpose
      ORDER BY l.user_id, l.purpose`,
    [workspaceId, fromDay, page.afterUserId ?? null, page.limit],
  );
  return rows.map((row) => ({ userId: row.user_id!, ...totalsOf(row) }));
}

/** The workspace's totals by purpose since `fromDay`, over every user the caller may see. */
export async function findWorkspaceLlmTotals(
  manager: EntityManager,
  workspaceId: string,
  fromDay: string,
): Promise<PurposeUsage[]> {
  const rows = await manager.query<SumRow[]>(
    `SELECT l.purpose, ${sums('true')}
       FROM llm_usage l
      WHERE l.workspace_id = $1 AND l.day >= $2
      GROUP BY l.workspace_id, l.purpose
      ORDER BY l.purpose`,
    [workspaceId, fromDay],
  );
  return rows.map(totalsOf);
}
