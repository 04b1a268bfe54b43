import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { PROJECTIONS } from '@engram/projections';

export const PROJECTION_NAMES = PROJECTIONS.map((projection) => projection.name);

/**
 * The lowest checkpoint among `names` and all their partitions (`memories#2/4`), 0 while one of
 * them has none yet.
 */
export async function lowestCheckpoint(
  pool: Pool,
  names: readonly string[] = PROJECTION_NAMES,
): Promise<number> {
  const { rows } = await pool.query<{ lowest: string | null; count: string }>(
    `SELECT min(position) AS lowest, count(DISTINCT split_part(name, '#', 1)) AS count
       FROM projection_checkpoints WHERE split_part(name, '#', 1) = ANY($1)`,
    [names],
  );
  return Number(rows[0]!.count) < names.length ? 0 : Number(rows[0]!.lowest ?? 0);
}

/** Resolves once every projection in `names` has reached `position` (polled every `pollMs`). */
export async function waitForCheckpoints(
  pool: Pool,
  position: number,
  options: Readonly<{ names?: readonly string[]; pollMs?: number; timeoutMs?: number }> = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  while ((await lowestCheckpoint(pool, options.names)) < position) {
    if (Date.now() > deadline) throw new Error(`projections did not reach ${position} in time`);
    await sleep(options.pollMs ?? 100);
  }
}

export async function storeHead(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ position: string }>('SELECT position FROM event_store_head');
  return Number(rows[0]!.position);
}
