import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';

/**
 * Polls the checkpoints until every named projection has applied `position`, or `timeoutMs` passed,
 * or `signal` aborted (the caller is stopping). Returns the projections still behind (empty when
 * reached).
 */
export async function waitForCheckpoints(
  dataSource: DataSource,
  names: readonly string[],
  position: bigint,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const rows = await dataSource.query<{ name: string; position: string }[]>(
      'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)',
      [names],
    );
    const behind = names.filter((name) => {
      const row = rows.find((r) => r.name === name);
      return row === undefined || BigInt(row.position) < position;
    });
    if (behind.length === 0 || Date.now() >= deadline || signal?.aborted) return behind;
    await sleep(pause, undefined, { signal }).catch(() => undefined);
  }
}
