import type { EntityManager } from 'typeorm';
import { normalizeContent } from '@engram/domain';
import { ActionRecord } from './actions.entity';

/** The most actions `findRecentActions` ever returns. */
export const MAX_RECENT_ACTIONS = 50;

export type RecentActionsFilter = Readonly<{ limit: number; since?: Date | undefined }>;

/**
 * The user's latest actions, newest first (created_at, then action_id). With `since`: the actions created
 * since then or the last `limit`, whichever is more; never more than MAX_RECENT_ACTIONS.
 */
export async function findRecentActions(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  filter: RecentActionsFilter,
): Promise<ActionRecord[]> {
  const { since } = filter;
  if (since === undefined && recentLimit(filter) === 0) return [];
  const newestFirst = await manager.find(ActionRecord, {
    where: { workspaceId, userId },
    order: { createdAt: 'DESC', actionId: 'DESC' },
    take: since === undefined ? recentLimit(filter) : MAX_RECENT_ACTIONS,
  });
  return recentPrefix(newestFirst, filter);
}

function recentLimit(filter: RecentActionsFilter): number {
  return Math.min(Math.max(0, Math.floor(filter.limit)), MAX_RECENT_ACTIONS);
}

/**
 * Of the newest-first actions (at most MAX_RECENT_ACTIONS), the recent ones: both "created since"
 * and "the last limit" are prefixes of that list, so their union is the longer prefix.
 */
export function recentPrefix(
  newestFirst: readonly ActionRecord[],
  filter: RecentActionsFilter,
): ActionRecord[] {
  const limit = recentLimit(filter);
  const { since } = filter;
  if (since === undefined) return newestFirst.slice(0, limit);
  const createdSince = newestFirst.filter((action) => action.createdAt >= since).length;
  return newestFirst.slice(0, Math.max(limit, createdSince));
}

export type ActionRecallFilter = Readonly<{
  /** Matched, without accents, case or punctuation, against tool, target, summary and input. */
  query?: string | undefined;
  status?: string | undefined;
  since: Date;
  limit: number;
}>;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The user's actions created since `since` matching the query and status, newest first. */
export async function recallActions(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  filter: ActionRecallFilter,
): Promise<ActionRecord[]> {
  // TypeORM reads `take: 0` as "no limit".
  if (filter.limit <= 0) return [];
  const query = manager
    .createQueryBuilder(ActionRecord, 'a')
    .where('a.workspace_id = :workspaceId', { workspaceId })
    .andWhere('a.user_id = :userId', { userId })
    .andWhere('a.created_at >= :since', { since: filter.since.toISOString() });
  if (filter.status !== undefined) query.andWhere('a.status = :status', { status: filter.status });
  const text = filter.query === undefined ? '' : normalizeContent(filter.query);
  if (text !== '') {
    query.andWhere("a.search_text LIKE '%' || :text || '%'", { text: escapeLike(text) });
  }
  return query
    .orderBy('a.created_at', 'DESC')
    .addOrderBy('a.action_id', 'DESC')
    .take(Math.floor(filter.limit))
    .getMany();
}

export async function findAction(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  actionId: string,
): Promise<ActionRecord | null> {
  return manager.findOne(ActionRecord, { where: { workspaceId, userId, actionId } });
}

export type ExpiredPendingAction = Readonly<{
  workspaceId: string;
  userId: string;
  actionId: string;
}>;

/** Pending actions whose expiry is at or before $1. */
const EXPIRED_PENDING_ACTIONS = `
       FROM actions
      WHERE status = 'pending' AND expires_at <= $1::timestamptz`;

/**
 * Pending actions whose expiry is at or before `now`, oldest expiry first. Used by the expiry scheduler
 * with the projector role, which sees every user.
 */
export async function findExpiredPendingActions(
  manager: EntityManager,
  now: Date,
  limit: number,
): Promise<ExpiredPendingAction[]> {
  if (limit <= 0) return [];
  const rows = await manager.query<{ workspace_id: string; user_id: string; action_id: string }[]>(
    `SELECT workspace_id, user_id, action_id ${EXPIRED_PENDING_ACTIONS}
      ORDER BY expires_at, workspace_id, user_id, action_id
      LIMIT $2`,
    [now.toISOString(), Math.floor(limit)],
  );
  return rows.map((row) => ({
    workspaceId: row.workspace_id,
    userId: row.user_id,
    actionId: row.action_id,
  }));
}

/** How many actions `findExpiredPendingActions` has left to hand out (the scheduler's backlog). */
export async function countExpiredPendingActions(
  manager: EntityManager,
  now: Date,
): Promise<number> {
  const rows = await manager.query<{ count: string }[]>(
    `SELECT count(*) AS count ${EXPIRED_PENDING_ACTIONS}`,
    [now.toISOString()],
  );
  return Number(rows[0]?.count ?? 0);
}

export type PendingActionsPage = Readonly<{
  /** The last action of the previous page: the page starts after it (newest first). */
  after?: Readonly<{ createdAt: string; actionId: string }> | undefined;
  limit: number;
}>;

/** A page of the user's pending actions, newest first (created_at, then action_id). */
export async function findPendingActionsPage(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  page: PendingActionsPage,
): Promise<ActionRecord[]> {
  if (page.limit <= 0) return [];
  const query = manager
    .createQueryBuilder(ActionRecord, 'a')
    .where('a.workspace_id = :workspaceId', { workspaceId })
    .andWhere('a.user_id = :userId', { userId })
    .andWhere("a.status = 'pending'");
  if (page.after) {
    query.andWhere('(a.created_at, a.action_id) < (CAST(:createdAt AS timestamptz), :actionId)', {
      createdAt: page.after.createdAt,
      actionId: page.after.actionId,
    });
  }
  return query
    .orderBy('a.created_at', 'DESC')
    .addOrderBy('a.action_id', 'DESC')
    .take(Math.floor(page.limit))
    .getMany();
}
