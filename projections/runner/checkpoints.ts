import { baseNameOf } from './partitions';
import type { EntityManager } from 'typeorm';

export async function ensureCheckpoint(manager: EntityManager, name: string): Promise<void> {
  await manager.query(
    `INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING`,
    [name],
  );
}

export async function readCheckpoint(manager: EntityManager, name: string): Promise<bigint> {
  const rows = await manager.query<{ position: string }[]>(
    'SELECT position FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  return BigInt(rows[0]?.position ?? '0');
}

export async function writeCheckpoint(
  manager: EntityManager,
  name: string,
  position: bigint,
): Promise<void> {
  await manager.query(
    'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1',
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
