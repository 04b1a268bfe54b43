import type { DataSource, EntityManager } from 'typeorm';
import type { CallerIdentity } from '@engram/domain';

/**
 * Runs a unit of work in one transaction whose settings carry the caller's identity, so that
 * row-level security decides which rows every query of `work` can see.
 */
export async function runAs<T>(
  dataSource: DataSource,
  identity: CallerIdentity,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await manager.query(
      `SELECT set_config('engram.workspace_id', $1, true),
              set_config('engram.user_id', $2, true),
              set_config('engram.roles', $3, true)`,
      [identity.workspaceId, identity.userId, identity.roles.join(',')],
    );
    return work(manager);
  });
}
