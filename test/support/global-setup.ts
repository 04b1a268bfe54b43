import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../libs/database/src/embedded-postgres';
import { buildConsoleIfStale } from './build-console';
import { buildServerIfStale } from './build-server';

/**
 * Tests run against a real PostgreSQL: TEST_DATABASE_URL (or DATABASE_URL) when set, otherwise a
 * server started here from embedded-postgres for the duration of the run.
 */
export default async function globalSetup(): Promise<void> {
  // The browser tests (console.e2e) load the built console from the API.
  buildConsoleIfStale();
  // The fault tests (worker-crash, postgres-restart, graceful-shutdown) spawn the built processes.
  buildServerIfStale();
  if (process.env.TEST_DATABASE_URL) return;
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const parent = mkdtempSync(join(tmpdir(), 'engram-test-pg-'));
  // The server may run as another system user (postgres, when the tests run as root).
  chmodSync(parent, 0o755);
  const dataDir = join(parent, 'data');
  const handle = await startEmbeddedPostgres({
    dataDir,
    password: randomBytes(12).toString('hex'),
  });
  (globalThis as { engramTestPostgres?: typeof handle }).engramTestPostgres = handle;
  process.env.TEST_DATABASE_URL = handle.url;
  console.log(
    `\nTests use an embedded PostgreSQL in ${dataDir} (set TEST_DATABASE_URL to use another).`,
  );
}
