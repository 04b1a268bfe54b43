import type { EntityManager } from 'typeorm';
import { MemoryOwner } from './memory-owners.entity';

/** The owner of a memory id, for the workspace's reviewing admins (reviewMode admin); null otherwise. */
export async function findMemoryOwner(
  manager: EntityManager,
  workspaceId: string,
  memoryId: string,
): Promise<string | null> {
  const row = await manager.findOne(MemoryOwner, { where: { workspaceId, memoryId } });
  return row?.userId ?? null;
}
