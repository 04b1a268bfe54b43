import type { EntityManager } from 'typeorm';
import { UserStreamStats } from './user-stream-stats.entity';

/** The caller's own statistics; RLS hides every other user's row, whatever the WHERE clause says. */
export async function findUserStreamStats(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<UserStreamStats | null> {
  return manager.findOne(UserStreamStats, { where: { workspaceId, userId } });
}
