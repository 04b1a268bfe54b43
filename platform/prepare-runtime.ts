import { join } from 'node:path';
import type { Clock } from '@engram/domain';
import {
  ConfigError,
  loadOrCreateLocalSecrets,
  parseMasterKey,
  type EngramConfig,
} from '@engram/config';
import {
  migrateDatabase,
  roleConnectionStrings,
  startEmbeddedPostgres,
  type RolePasswords,
} from '@engram/database';
import { READ_MODEL_ENTITIES, READ_MODEL_MIGRATIONS } from '@engram/projections';
import { checkEventStore } from './check-event-store';

export type Runtime = Readonly<{
  config: EngramConfig;
  ownerUrl: string;
  appUrl: string;
  projectorUrl: string;
  jwtSecret: string | undefined;
  /** Wraps every owner's data key (personal data is encrypted at rest): ENGRAM_MASTER_KEY, or generated. */
  masterKey: Buffer;
  embedded: boolean;
  stop: () => Promise<void>;
  /** Replaces the system clock (tests move time instead of waiting). */
  clock?: Clock;
}>;

export type Log = (message: string) => void;

/**
 * Everything the processes need before Nest starts: a Postgres (the configured one, or an embedded
 * server started here), migrated, and the connection strings of the owner and the two login roles.
 */
export async function prepareRuntime(config: EngramConfig, log: Log): Promise<Runtime> {
  await checkEventStore(config, log);
  if (config.databaseUrl) {
    if (!config.jwt.secret && !config.jwt.jwksUrl) {
      throw new ConfigError(
        'ENGRAM_JWT_SECRET',
        'is required (or ENGRAM_JWKS_URL) when DATABASE_URL is set: tokens must be verifiable',
      );
    }
    if (!config.masterKey) {
      throw new ConfigError(
        'ENGRAM_MASTER_KEY',
        'is required when DATABASE_URL is set: personal data is encrypted at rest with it ' +
          '(base64 of 32 random bytes: openssl rand -base64 32; keep it safe, it cannot be recovered)',
      );
    }
    const passwords: RolePasswords = {
      app: config.appDbPassword,
      projector: config.projectorDbPassword,
    };
    await migrateDatabase(config.databaseUrl, schema(), passwords);
    return {
      config,
      ownerUrl: config.databaseUrl,
      ...roleConnectionStrings(config.databaseUrl, passwords),
      jwtSecret: config.jwt.secret,
      masterKey: config.masterKey,
      embedded: false,
      stop: () => Promise.resolve(),
    };
  }
  const secretsFile = join(config.dataDir, 'secrets.json');
  const { secrets, created, added } = loadOrCreateLocalSecrets(config.dataDir);
  if (created) log(`Generated development secrets in ${secretsFile}`);
  else if (added.length > 0) log(`Added ${added.join(', ')} to the secrets in ${secretsFile}`);
  if ((created || added.includes('masterKey')) && !config.masterKey) {
    log(
      `Generated the master key that encrypts personal data at rest, in ${secretsFile}: ` +
        'back it up, personal data cannot be read without it',
    );
  }
  const masterKey =
    config.masterKey ?? parseMasterKey(`${secretsFile} masterKey`, secrets.masterKey);
  const pgDir = join(config.dataDir, 'postgres');
  log(`Starting the embedded PostgreSQL (data in ${pgDir})`);
  const server = await startEmbeddedPostgres({
    dataDir: pgDir,
    password: secrets.databasePassword,
    onNotice: log,
  });
  try {
    const passwords = { app: secrets.databasePassword, projector: secrets.databasePassword };
    await migrateDatabase(server.url, schema(), passwords);
    return {
      config,
      ownerUrl: server.url,
      ...roleConnectionStrings(server.url, passwords),
      jwtSecret: config.jwt.secret ?? secrets.jwtSecret,
      masterKey,
      embedded: true,
      stop: server.stop,
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

function schema() {
  return { entities: READ_MODEL_ENTITIES, migrations: READ_MODEL_MIGRATIONS };
}
