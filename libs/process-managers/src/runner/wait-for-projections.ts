import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { RetryLaterError } from './reactor';

/**
 * Waits until the named projections have applied every event up to `position`, so that a process
 * manager reads read models that already reflect what it reacts to.
 */
export async function waitForProjections(
  dataSource: DataSource,
  names: readonly string[],
  position: bigint,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const rows = await dataSource.query<{ name: string; position: string }[]>(
      'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)',
      [names],
    );
    const reached = names.every((name) => {
      const row = rows.find((r) => r.name === name);
      return row !== undefined && BigInt(row.position) >= position;
    });
    if (reached) return;
    if (Date.now() > deadline) {
      throw new RetryLaterError(
        `projections ${names.join(', ')} did not reach position ${position}`,
      );
    }
    await sleep(pause);
  }
}
