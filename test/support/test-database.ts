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
