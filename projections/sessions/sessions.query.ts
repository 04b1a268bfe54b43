import type { EntityManager } from 'typeorm';
import { readRows } from '../runner/row-reads';
import { Session } from './sessions.entity';

/** The session, null when unknown (or, under RLS, someone else's). Asked at every message. */
export async function findSession(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
  sessionId: string,
): Promise<Session | null> {
  const [session] = await readRows(manager, Session, {
    where: { workspaceId, userId, sessionId },
    limit: 1,
  });
  return session ?? null;
}
