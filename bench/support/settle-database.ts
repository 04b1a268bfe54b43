import type { Pool } from 'pg';

/**
 * After the worker has replayed the seeded store: flush the WAL the replay wrote (a checkpoint by WAL
 * volume would otherwise run through the next scenarios) and refresh the read models' statistics, as
 * a database that has been running for a while would be. Needs a role allowed to CHECKPOINT; without
 * it the scenarios run on as they are, and the log says so.
 */
export async function settleDatabase(pool: Pool, log: (message: string) => void): Promise<void> {
  const started = Date.now();
  try {
    await pool.query('VACUUM ANALYZE');
    await pool.query('CHECKPOINT');
    log(
      `database settled (VACUUM ANALYZE, CHECKPOINT) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    log(`database not settled: ${error instanceof Error ? error.message : String(error)}`);
  }
}
