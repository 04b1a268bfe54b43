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

/** Locks the checkpoint row for the rest of the transaction: one writer per projection at a time. */
export async function lockCheckpoint(manager: EntityManager, name: string): Promise<bigint> {
  const rows = await manager.query<{ position: string }[]>(
    'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
    [name],
  );
  return BigInt(rows[0]?.position ?? '0');
}

/**
 * An SQL boolean expression checked by the statement that advances a checkpoint, its parameters
 * numbered from `first`.
 */
export type SqlCondition = (first: number) => Readonly<{ sql: string; params: readonly unknown[] }>;

export type Advance = 'advanced' | 'moved' | 'fenced';

/**
 * Moves a checkpoint from `from` to `to` in one statement that also locks the row until the
 * transaction ends (one writer per projection at a time) and checks `fence` (the worker still holds
 * the partition): 'moved' when the checkpoint is no longer at `from` (another runner, a rebuild),
 * 'fenced' when `fence` is false. The transaction commits without waiting for its WAL to be flushed:
 * read models and their checkpoints are derived data, and a server crash that loses the last batches
 * loses their checkpoints with them, so the runner applies them again (see ARCHITECTURE.md).
 */
export async function advanceCheckpoint(
  manager: EntityManager,
  name: string,
  from: bigint,
  to: bigint,
  fence?: SqlCondition,
): Promise<Advance> {
  const condition = fence?.(4) ?? { sql: 'true', params: [] };
  const rows = await manager.query<{ may_write: boolean; advanced: boolean }[]>(
    `WITH fence AS (SELECT ${condition.sql} AS may_write),
     advanced AS (
       UPDATE projection_checkpoints SET position = $3, updated_at = now()
       WHERE name = $1 AND position = $2 AND (SELECT may_write FROM fence)
       RETURNING 1
     )
     SELECT (SELECT may_write FROM fence) AS may_write,
            EXISTS (SELECT 1 FROM advanced) AS advanced,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit`,
    [name, from.toString(), to.toString(), ...condition.params],
  );
  const row = rows[0]!;
  if (!row.may_write) return 'fenced';
  return row.advanced ? 'advanced' : 'moved';
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
