import { In, type EntityManager, type FindOptionsWhere } from 'typeorm';
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
  const where: FindOptionsWhere<MemoryRecord> = { workspaceId, userId };
  if (filter.statuses) where.status = In(filter.statuses as MemoryRecordStatus[]);
  if (filter.kind !== undefined) where.kind = filter.kind as MemoryRecord['kind'];
  return manager.find(MemoryRecord, { where, order: { createdAt: 'ASC', memoryId: 'ASC' } });
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
 * The approved fact the user has gone longest without: the one whose latest use (or creation) or
 * sighting is the oldest; ties broken by id. The one the cap evicts first.
 */
export async function findLeastRecentlyUsedFact(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<MemoryRecord | null> {
  return manager
    .createQueryBuilder(MemoryRecord, 'memory')
    .where('memory.workspace_id = :workspaceId', { workspaceId })
    .andWhere('memory.user_id = :userId', { userId })
    .andWhere("memory.status = 'approved'")
    .andWhere("memory.kind = 'fact'")
    .orderBy(
      'GREATEST(COALESCE(memory.last_used_at, memory.created_at), memory.last_seen_at)',
      'ASC',
    )
    .addOrderBy('memory.memory_id', 'ASC')
    .limit(1)
    .getOne();
}
