import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrateDatabase, roleConnectionStrings, type RolePasswords } from '@engram/database';
import { READ_MODEL_ENTITIES, READ_MODEL_MIGRATIONS } from '@engram/projections';

export type BenchDatabase = Readonly<{
  name: string;
  ownerUrl: string;
  appUrl: string;
  projectorUrl: string;
  drop: () => Promise<void>;
}>;

export const ROLE_PASSWORDS: RolePasswords = {
  app: process.env.ENGRAM_APP_DB_PASSWORD,
  projector: process.env.ENGRAM_PROJECTOR_DB_PASSWORD,
};

/** `work` on a connection of its own to the server of `serverUrl`, closed after it. */
export async function onServer<T>(
  serverUrl: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A throwaway, migrated database on the server of `serverUrl`; `drop` removes it. */
export async function createBenchDatabase(
  serverUrl: string,
  label: string,
): Promise<BenchDatabase> {
  const name = `engram_bench_${label}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const ownerUrl = url.toString();
  await migrateDatabase(
    ownerUrl,
    { entities: READ_MODEL_ENTITIES, migrations: READ_MODEL_MIGRATIONS },
    ROLE_PASSWORDS,
  );
  return {
    name,
    ownerUrl,
    ...roleConnectionStrings(ownerUrl, ROLE_PASSWORDS),
    drop: async () => {
      await onServer(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}
