import type { EntityManager } from 'typeorm';
import { Session } from './sessions.entity';

export async function findSession(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  sessionId: string,
): Promise<Session | null> {
  return manager.findOne(Session, { where: { workspaceId, userId, sessionId } });
}
