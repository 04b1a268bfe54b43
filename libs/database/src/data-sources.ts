import { ResilientClient } from '@engram/event-store';
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
