import { preparedQuery } from '@engram/database';
import type { EntityManager } from 'typeorm';
import { baseNameOf } from './partitions';

export async function ensureCheckpoint(manager: EntityManager, name: string): Promise<void> {
  await manager.query(
    `INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING`,
    [name],
  );
}

export async function readCheckpoint(manager: EntityManager, name: string): Promise<bigint> {
  const rows = await preparedQuery<{ position: string }>(
    manager,
    'SELECT position FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  return BigInt(rows[0]?.position ?? '0');
}

/**
 * A reactor's checkpoint, or a projection's over batches it had nothing to apply from. Committed
 * without waiting for the WAL flush, like projection batches: delivery is at least once and every
 * reaction idempotent, so a checkpoint a server crash loses only makes a consumer see again events
 * it had seen.
 */
export async function writeCheckpoint(
  manager: EntityManager,
  name: string,
  position: bigint,
): Promise<void> {
  await preparedQuery(
    manager,
    `WITH written AS (
       UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 RETURNING 1
     )
     SELECT set_config('synchronous_commit', 'off', true) AS synchronous_commit`,
    [name, position.toString()],
  );
}

/** Every checkpoint (projections, and reactors as `reactor:<name>`), by name. */
export async function listCheckpoints(
  manager: EntityManager,
): Promise<{ name: string; position: bigint }[]> {
  const rows = await manager.query<{ name: string; position: string }[]>(
    'SELECT name, position FROM projection_checkpoints ORDER BY name',
  );
  return rows.map((row) => ({ name: row.name, position: BigInt(row.position) }));
}

/**
 * One checkpoint per consumer: the lowest of its partitions' (how far all of its owners have
 * surely been applied), so that metrics and waits speak of projections, not of partitions.
 */
export async function lowestCheckpoints(
  manager: EntityManager,
): Promise<{ name: string; position: bigint }[]> {
  const lowest = new Map<string, bigint>();
  for (const { name, position } of await listCheckpoints(manager)) {
    const base = baseNameOf(name);
    const known = lowest.get(base);
    if (known === undefined || position < known) lowest.set(base, position);
  }
  return [...lowest].map(([name, position]) => ({ name, position }));
}
