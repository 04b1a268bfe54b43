import type { EntityManager } from 'typeorm';
import { MemorySettings } from './memory-settings.entity';

/** Null when the user never changed anything: memory on, not paused, generation 0. */
export async function findMemorySettings(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<MemorySettings | null> {
  return manager.findOne(MemorySettings, { where: { workspaceId, userId } });
}
