import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';

/** What the sampling of the appending backends saw over a window. */
export type HeadLockSamples = Readonly<{
  samples: number;
  /**
   * Share of samples in which an append transaction ran without waiting for a lock: one holds the
   * head lock at a time, so this is the share of time the lock was held (an upper bound: it also
   * counts the moment before the function takes the lock).
   */
  heldShare: number;
  /** Share of samples in which at least one append transaction waited for a lock (the head). */
  waitShare: number;
  /** Mean number of append transactions waiting, over all samples. */
  meanWaiting: number;
  /**
   * Waiting backends seen, by wait event: the head lock shows as `transactionid` (waiting for the
   * holder's transaction to end) or `tuple`; `extend` is the table growing, not the head.
   */
  waitEvents: Record<string, number>;
}>;

/**
 * Samples pg_stat_activity every ~2 ms for the backends of `applicationName` running the append
 * function (pg_stat_statements is not needed): running (holding the head lock, or about to take it)
 * or waiting on a lock (another transaction's head lock). Stop it with the returned function.
 */
export function sampleHeadLock(
  pool: Pool,
  applicationName: string,
): () => Promise<HeadLockSamples> {
  let sampling = true;
  let samples = 0;
  let held = 0;
  let waited = 0;
  let waiting = 0;
  const waitEvents: Record<string, number> = {};
  const loop = (async () => {
    while (sampling) {
      const { rows } = await pool.query<{ running: number; waiting: string[] }>(
        `SELECT count(*) FILTER (WHERE wait_event_type IS DISTINCT FROM 'Lock')::int AS running,
                coalesce(array_agg(wait_event) FILTER (WHERE wait_event_type = 'Lock'), '{}') AS waiting
           FROM pg_stat_activity
          WHERE application_name = $1 AND state = 'active' AND query LIKE '%engram_append_batch%'`,
        [applicationName],
      );
      samples += 1;
      if (rows[0]!.running > 0) held += 1;
      if (rows[0]!.waiting.length > 0) waited += 1;
      waiting += rows[0]!.waiting.length;
      for (const event of rows[0]!.waiting) waitEvents[event] = (waitEvents[event] ?? 0) + 1;
      await sleep(2);
    }
  })();
  return async () => {
    sampling = false;
    await loop;
    return {
      samples,
      heldShare: samples ? held / samples : Number.NaN,
      waitShare: samples ? waited / samples : Number.NaN,
      meanWaiting: samples ? waiting / samples : Number.NaN,
      waitEvents,
    };
  };
}
