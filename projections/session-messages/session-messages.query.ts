import { MoreThan, type EntityManager } from 'typeorm';
import { readRows } from '../runner/row-reads';
import { SessionMessage } from './session-messages.entity';

/** The last `limit` messages of a session, oldest first (what an agent sees of the conversation). */
export async function findLiveWindow(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  sessionId: string,
  limit: number,
): Promise<SessionMessage[]> {
  if (limit <= 0) return [];
  const newestFirst = await readRows(manager, SessionMessage, {
    where: { workspaceId, userId, sessionId },
    orderBy: [['position', 'DESC']],
    limit,
  });
  return newestFirst.reverse();
}

/** Messages of a session after `afterPosition` (exclusive), oldest first, at most `limit`. */
export async function findMessagesToSummarize(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  sessionId: string,
  afterPosition: string,
  limit: number,
): Promise<SessionMessage[]> {
  if (limit <= 0) return [];
  return manager.find(SessionMessage, {
    where: { workspaceId, userId, sessionId, position: MoreThan(afterPosition) },
    order: { position: 'ASC' },
    take: limit,
  });
}
