import { In, type EntityManager } from 'typeorm';
import { readRows } from '../runner/row-reads';
import { MemoryRecord, type MemoryRecordStatus } from './memories.entity';

export type MemoryFilter = Readonly<{ statuses?: readonly string[]; kind?: string }>;

const ACTIVE_STATUSES: readonly MemoryRecordStatus[] = ['pending', 'approved'];

/** The user's memories, oldest first; `statuses` and `kind` narrow the list when given. */
export async function findMemories(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  filter: MemoryFilter = {},
): Promise<MemoryRecord[]> {
  if (filter.statuses?.length === 0) return [];
  return readRows(manager, MemoryRecord, {
    where: { workspaceId, userId, ...(filter.kind !== undefined ? { kind: filter.kind } : {}) },
    ...(filter.statuses ? { anyOf: { column: 'status', values: filter.statuses } } : {}),
    orderBy: [
      ['createdAt', 'ASC'],
      ['memoryId', 'ASC'],
    ],
  });
}

export async function findMemory(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  memoryId: string,
): Promise<MemoryRecord | null> {
  return manager.findOne(MemoryRecord, { where: { workspaceId, userId, memoryId } });
}

/** Pending and approved memories: the ones that count against the user's cap. */
export async function countActiveMemories(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<number> {
  return manager.count(MemoryRecord, {
    where: { workspaceId, userId, status: In([...ACTIVE_STATUSES]) },
  });
}

/**
 * The memory the cap evicts first: of those it may evict (`evictable`, as `isEvictableByCap` decided:
 * approved facts no admin approved), the one the user has gone longest without, whose latest use (or
 * creation) or sighting is the oldest; ties broken by id.
 */
export async function findNextToEvict(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<MemoryRecord | null> {
  return manager
    .createQueryBuilder(MemoryRecord, 'memory')
    .where('memory.workspace_id = :workspaceId', { workspaceId })
    .andWhere('memory.user_id = :userId', { userId })
    .andWhere('memory.evictable')
    .orderBy(
      'GREATEST(COALESCE(memory.last_used_at, memory.created_at), memory.last_seen_at)',
      'ASC',
    )
    .addOrderBy('memory.memory_id', 'ASC')
    .limit(1)
    .getOne();
}

export type ExpiredCandidate = Readonly<{
  workspaceId: string;
  userId: string;
  memoryId: string;
  /** Position of the memory's last event: with the id, it names this one pending period. */
  position: string;
}>;

/** Pending candidates older than their workspace's pendingTtlDays ($1: now, $2: the default TTL). */
const EXPIRED_PENDING_MEMORIES = `
       FROM memories m LEFT JOIN workspace_policies p ON p.workspace_id = m.workspace_id
      WHERE m.status = 'pending'
        AND m.created_at <= $1::timestamptz - make_interval(days => COALESCE(p.pending_ttl_days, $2))`;

/**
 * Pending candidates older than their workspace's pendingTtlDays (the default when it never set one),
 * oldest first. Used by the expiry scheduler with the projector role, which sees every user.
 */
export async function findExpiredPendingMemories(
  manager: EntityManager,
  now: Date,
  defaultTtlDays: number,
  limit: number,
): Promise<ExpiredCandidate[]> {
  const rows = await manager.query<
    { workspace_id: string; user_id: string; memory_id: string; position: string }[]
  >(
    `SELECT m.workspace_id, m.user_id, m.memory_id, m.position ${EXPIRED_PENDING_MEMORIES}
      ORDER BY m.created_at, m.memory_id
      LIMIT $3`,
    [now.toISOString(), defaultTtlDays, limit],
  );
  return rows.map((row) => ({
    workspaceId: row.workspace_id,
    userId: row.user_id,
    memoryId: row.memory_id,
    position: row.position,
  }));
}

/** How many candidates `findExpiredPendingMemories` has left to hand out (the scheduler's backlog). */
export async function countExpiredPendingMemories(
  manager: EntityManager,
  now: Date,
  defaultTtlDays: number,
): Promise<number> {
  const rows = await manager.query<{ count: string }[]>(
    `SELECT count(*) AS count ${EXPIRED_PENDING_MEMORIES}`,
    [now.toISOString(), defaultTtlDays],
  );
  return Number(rows[0]?.count ?? 0);
}

export type ReviewQueueFilter = Readonly<{
  statuses: readonly MemoryRecordStatus[];
  userId?: string | undefined;
  kind?: string | undefined;
  minConfidence?: number | undefined;
  /** Keyset: the (created_at, memory_id) of the last item already seen. */
  after?: Readonly<{ createdAt: string; memoryId: string }> | undefined;
  limit: number;
}>;

/**
 * The workspace's review queue, oldest first. Row-level security decides what an admin sees (pending and
 * expired candidates, in reviewMode admin only); the WHERE clause only narrows it.
 */
export async function findReviewQueue(
  manager: EntityManager,
  workspaceId: string,
  filter: ReviewQueueFilter,
): Promise<MemoryRecord[]> {
  const query = manager
    .createQueryBuilder(MemoryRecord, 'm')
    .where('m.workspace_id = :workspaceId', { workspaceId })
    .andWhere('m.status IN (:...statuses)', { statuses: filter.statuses });
  if (filter.userId) query.andWhere('m.user_id = :userId', { userId: filter.userId });
  if (filter.kind) query.andWhere('m.kind = :kind', { kind: filter.kind });
  if (filter.minConfidence !== undefined) {
    query.andWhere('m.confidence >= :minConfidence', { minConfidence: filter.minConfidence });
  }
  if (filter.after) {
    query.andWhere('(m.created_at, m.memory_id) > (:afterAt, :afterId)', {
      afterAt: filter.after.createdAt,
      afterId: filter.after.memoryId,
    });
  }
  return query
    .orderBy('m.created_at', 'ASC')
    .addOrderBy('m.memory_id', 'ASC')
    .take(filter.limit)
    .getMany();
}

/**
 * The owner of a candidate pending in the workspace's review queue, read where the queue itself is
 * read (row-level security shows an admin pending candidates only in reviewMode admin): a candidate
 * an admin just saw in the queue is found, whatever other read models have applied; null otherwise.
 */
export async function findQueuedMemoryOwner(
  manager: EntityManager,
  workspaceId: string,
  memoryId: string,
): Promise<string | null> {
  const row = await manager.findOne(MemoryRecord, {
    where: { workspaceId, memoryId, status: 'pending' },
    select: { userId: true },
  });
  return row?.userId ?? null;
}
