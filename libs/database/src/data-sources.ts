import { Client, type ClientConfig } from 'pg';
import { DataSource, type MigrationInterface, type MixedList } from 'typeorm';
import { CORE_MIGRATIONS } from './migrations';
import {
  APP_ROLE,
  PROJECTOR_ROLE,
  connectionStringAs,
  ensureRoles,
  type RolePasswords,
} from './roles';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity and migration classes
type Classes = MixedList<Function>;

export type MigrationClass = new () => MigrationInterface;

export type DatabaseSchema = Readonly<{ entities: Classes; migrations: readonly MigrationClass[] }>;

/**
 * A connection whose death (PostgreSQL restarted, network cut) never crashes the process. pg emits
 * 'error' on a client that has no query running; the pool listens while the client is idle and
 * TypeORM while a query runner holds it, but a client between the two had none: a PostgreSQL restart
 * under the worker's load crashed it now and then (`test/faults/postgres-restart.int.spec.ts`, one run
 * in three; the client had been checked out by a checkpoint statement). The query in flight still
 * fails, and the pool drops the broken client when it is released, as the event store's pool does
 * (`createResilientPool`).
 */
export class ResilientClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

export function createDataSource(
  url: string,
  entities: Classes,
  poolSize = 10,
  name = 'engram',
): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    synchronize: false,
    migrationsRun: false,
    applicationName: name,
    extra: { max: poolSize, Client: ResilientClient },
  });
}

/**
 * Run as the owner: creates the login roles, then applies every pending migration (core tables and
 * read models). Idempotent, so every start can call it.
 */
export async function migrateDatabase(
  ownerUrl: string,
  schema: DatabaseSchema,
  passwords: RolePasswords,
): Promise<void> {
  const owner = new DataSource({
    type: 'postgres',
    url: ownerUrl,
    entities: schema.entities,
    migrations: [...CORE_MIGRATIONS, ...schema.migrations],
    migrationsTransactionMode: 'each',
    applicationName: 'engram-migrations',
  });
  await owner.initialize();
  try {
    const runner = owner.createQueryRunner();
    try {
      // Two processes starting at once must not both migrate.
      await runner.query('SELECT pg_advisory_lock(7236001)');
      await ensureRoles((sql, params) => runner.query(sql, params), passwords);
      await owner.runMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(7236001)').catch(() => undefined);
      await runner.release();
    }
  } finally {
    await owner.destroy();
  }
}

export type ReadModelConnections = Readonly<{ app: DataSource; projector: DataSource }>;

export function roleConnectionStrings(ownerUrl: string, passwords: RolePasswords) {
  return {
    appUrl: connectionStringAs(ownerUrl, APP_ROLE, passwords.app),
    projectorUrl: connectionStringAs(ownerUrl, PROJECTOR_ROLE, passwords.projector),
  };
}
