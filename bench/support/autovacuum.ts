import { onServer } from './bench-database';

/**
 * Autovacuum on for the bench's run, as every production server runs it, when the server has it off
 * (this machine's PostgreSQL is configured for CI with `autovacuum = off`); returns what restores the
 * server's setting. Without it, a read-model table empty when it was last analyzed (the LLM ledger:
 * the seed holds no LLM call) keeps the worker's prepared lookups on a plan made for an empty table,
 * a sequential scan, while it grows to thousands of rows during the scenarios: 950 µs a lookup
 * against 71 in a worker started after it had grown (BENCHMARKS.md round 25). Needs a superuser;
 * without one the run goes on as the server is, and the log says so.
 */
export async function withAutovacuum(
  serverUrl: string,
  log: (message: string) => void,
): Promise<() => Promise<void>> {
  const nothing = async () => undefined;
  try {
    return await onServer(serverUrl, async (client) => {
      const { rows } = await client.query<{ setting: string; sourcefile: string | null }>(
        "SELECT setting, sourcefile FROM pg_settings WHERE name = 'autovacuum'",
      );
      if (rows[0]?.setting === 'on') return nothing;
      // Set in postgresql.auto.conf itself: restored by setting it back, else by removing ours.
      const restore = rows[0]?.sourcefile?.endsWith('postgresql.auto.conf')
        ? 'ALTER SYSTEM SET autovacuum = off'
        : 'ALTER SYSTEM RESET autovacuum';
      await client.query('ALTER SYSTEM SET autovacuum = on');
      await client.query('SELECT pg_reload_conf()');
      log('autovacuum turned on for the run (the server had it off)');
      return () =>
        onServer(serverUrl, async (again) => {
          await again.query(restore);
          await again.query('SELECT pg_reload_conf()');
          log('autovacuum set back off');
        });
    });
  } catch (error) {
    log(`autovacuum left as it is: ${error instanceof Error ? error.message : String(error)}`);
    return nothing;
  }
}
