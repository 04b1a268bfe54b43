import type { DataSource } from 'typeorm';
import { clearParked } from './parked-events';
import type { AnyProjection } from './projection';

/**
 * Empties a projection's table, resets the checkpoints of all its partitions to 0 and forgets what it
 * had parked, in one transaction; runners notice the moved checkpoint and replay from the first event
 * (what still fails is parked again, and operators' decisions in the log are carried out again).
 */
export async function resetProjection(
  dataSource: DataSource,
  projection: AnyProjection,
): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query(
      `INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING`,
      [projection.name],
    );
    await manager.query(
      `SELECT position FROM projection_checkpoints WHERE name = $1 OR starts_with(name, $2) FOR UPDATE`,
      [projection.name, `${projection.name}#`],
    );
    await manager.clear(projection.entity);
    await manager.query(
      `UPDATE projection_checkpoints SET position = 0, updated_at = now() WHERE name = $1 OR starts_with(name, $2)`,
      [projection.name, `${projection.name}#`],
    );
    await clearParked(manager, projection.name);
  });
}
