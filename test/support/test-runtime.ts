import { loadConfig } from '@engram/config';
import type { Runtime } from '@engram/platform';
import type { TestDatabase } from './test-database';

export const TEST_JWT_SECRET = 'engram-test-secret-0123456789abcdef0123456789';
/** Fixed, so that several runtimes on one test database share their data keys. */
export const TEST_MASTER_KEY = Buffer.alloc(32, 'engram-test-master-key');

/** A runtime pointing at a test database, with the worker in process unless told otherwise. */
export function testRuntime(
  database: TestDatabase,
  overrides: Record<string, string> = {},
): Runtime {
  return {
    config: loadConfig({
      DATABASE_URL: database.ownerUrl,
      ENGRAM_JWT_SECRET: TEST_JWT_SECRET,
      PORT: '0',
      ...overrides,
    }),
    ownerUrl: database.ownerUrl,
    appUrl: database.appUrl,
    projectorUrl: database.projectorUrl,
    jwtSecret: TEST_JWT_SECRET,
    masterKey: TEST_MASTER_KEY,
    embedded: false,
    stop: () => Promise.resolve(),
  };
}

/**
 * A runtime as the embedded default builds it (no DATABASE_URL nor ENGRAM_JWT_SECRET in its
 * configuration, so dev tokens are on; its "generated" secret is TEST_JWT_SECRET), on a test database.
 */
export function embeddedTestRuntime(
  database: TestDatabase,
  overrides: Record<string, string> = {},
): Runtime {
  return {
    ...testRuntime(database),
    config: loadConfig({ PORT: '0', ...overrides }),
    embedded: true,
  };
}
