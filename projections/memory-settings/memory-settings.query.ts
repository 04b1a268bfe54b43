import type { EntityManager } from 'typeorm';
import { readRows } from '../runner/row-reads';
import { MemorySettings } from './memory-settings.entity';

/** Null when the user never changed anything: memory on, not paused, generation 0. */
export async function findMemorySettings(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<MemorySettings | null> {
  const [settings] = await readRows(manager, MemorySettings, {
    where: { workspaceId, userId },
    limit: 1,
  });
  return settings ?? null;
}
