import type { DataSource } from 'typeorm';
import { ensureCheckpoint, lockCheckpoint, writeCheckpoint } from './checkpoints';
import type { AnyProjection } from './projection';

/**
 * Empties a projection's table and resets its checkpoint to 0 in one transaction; runners notice the
 * moved checkpoint and replay from the first event.
 */
export async function resetProjection(
  dataSource: DataSource,
  projection: AnyProjection,
): Promise<void> {
  await ensureCheckpoint(dataSource.manager, projection.name);
  await dataSource.transaction(async (manager) => {
    await lockCheckpoint(manager, projection.name);
    await manager.clear(projection.entity);
    await writeCheckpoint(manager, projection.name, 0n);
  });
}
