import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { countExpiredPendingActions, countIdentityCardsToRegenerate } from '@engram/projections';
import type { EntityManager } from 'typeorm';
import { lowestCheckpoint, storeHead } from '../support/checkpoints';

export type Settled = Readonly<{
  settled: boolean;
  head: number;
  seconds: number;
  /** What was still pending at the last look, when it did not settle. */
  waitingFor: readonly string[];
}>;

/**
 * Waits until the background work is done: every checkpoint (projections and reactors) at the store
 * head, no action or identity card due, and the head still for `stillMs` (reactors and jobs append).
 */
export async function waitUntilSettled(
  pool: Pool,
  options: Readonly<{ stillMs?: number; timeoutMs?: number; debounceSeconds: number }>,
): Promise<Settled> {
  const startedAt = Date.now();
  const deadline = startedAt + (options.timeoutMs ?? 180_000);
  let lastHead = -1;
  let stillSince = Date.now();
  for (;;) {
    const head = await storeHead(pool);
    const waitingFor = await stillToDo(pool, head, options.debounceSeconds);
    const seconds = (Date.now() - startedAt) / 1000;
    if (head !== lastHead || waitingFor.length > 0) {
      lastHead = head;
      stillSince = Date.now();
    } else if (Date.now() - stillSince >= (options.stillMs ?? 3000)) {
      return { settled: true, head, seconds, waitingFor };
    }
    if (Date.now() > deadline) return { settled: false, head, seconds, waitingFor };
    await sleep(250);
  }
}

/** Every checkpoint at `head` (and every projection has one). */
export async function checkpointsAt(pool: Pool, head: number): Promise<boolean> {
  return (
    (await checkpointsBehind(pool, head)).length === 0 && (await lowestCheckpoint(pool)) === head
  );
}

async function checkpointsBehind(pool: Pool, head: number): Promise<string[]> {
  const { rows } = await pool.query<{ name: string; position: string }>(
    'SELECT name, position FROM projection_checkpoints WHERE position < $1 ORDER BY name',
    [head],
  );
  return rows.map((row) => `${row.name} at ${row.position} (head ${head})`);
}

async function stillToDo(pool: Pool, head: number, debounceSeconds: number): Promise<string[]> {
  // The jobs' own work lists, read the way the jobs read them.
  const manager = {
    query: async (sql: string, parameters: unknown[]) => (await pool.query(sql, parameters)).rows,
  } as unknown as EntityManager;
  const now = new Date();
  const [behind, lowest, actions, cards] = await Promise.all([
    checkpointsBehind(pool, head),
    lowestCheckpoint(pool),
    countExpiredPendingActions(manager, now),
    countIdentityCardsToRegenerate(manager, new Date(now.getTime() - debounceSeconds * 1000)),
  ]);
  return [
    ...behind,
    ...(lowest < head && behind.length === 0 ? ['a projection without a checkpoint'] : []),
    ...(actions > 0 ? [`${actions} pending actions past their expiry`] : []),
    ...(cards > 0 ? [`${cards} identity cards to regenerate`] : []),
  ];
}
