import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrateDatabase, roleConnectionStrings } from '@engram/database';
import { READ_MODEL_ENTITIES, READ_MODEL_MIGRATIONS } from '@engram/projections';

export const TEST_ROLE_PASSWORDS = { app: 'engram-test-app', projector: 'engram-test-projector' };

export type TestDatabase = Readonly<{
  ownerUrl: string;
  appUrl: string;
  projectorUrl: string;
  drop: () => Promise<void>;
}>;

export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  return url;
}

/** A fresh, migrated database of its own for one test file, dropped at the end. */
export async function createTestDatabase(server = serverUrl()): Promise<TestDatabase> {
  const name = `engram_t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const ownerUrl = url.toString();
  await migrateDatabase(
    ownerUrl,
    { entities: READ_MODEL_ENTITIES, migrations: READ_MODEL_MIGRATIONS },
    TEST_ROLE_PASSWORDS,
  );
  const roles = roleConnectionStrings(ownerUrl, TEST_ROLE_PASSWORDS);
  return {
    ownerUrl,
    ...roles,
    drop: async () => {
      const client = new Client({ connectionString: server });
      await client.connect();
      // A pool's `end()` resolves before its connections have closed: forced at once, the server
      // would end them with an error their pool no longer listens for (an unhandled error in
      // whichever test file runs next in this process). Those being closed are waited for, briefly.
      for (let waited = 0; waited < 2000; waited += 20) {
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The environment of a script the tests run against the test server (bench and soak smoke runs). */
export function scriptEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: serverUrl(),
    // The embedded server of a local run asks the login roles for passwords.
    ENGRAM_APP_DB_PASSWORD: TEST_ROLE_PASSWORDS.app,
    ENGRAM_PROJECTOR_DB_PASSWORD: TEST_ROLE_PASSWORDS.projector,
  };
}
