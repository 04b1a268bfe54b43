import { join } from 'node:path';
import type { Pool } from 'pg';
import { DIST, startBuiltScript, type EngramProcess } from '../support/engram-process';
import { BENCH_JWT_SECRET } from '../support/secrets';

/**
 * The minimal NestJS app (minimal-nest-app.ts) as its own process, checking the bench's tokens;
 * `databases` gives it the table it appends to and the connection it reads contexts through,
 * `production` the middleware a production service adds.
 */
/** The read models whose rows a message adds, copied (rows and indexes) for the inline alternative. */
export const INLINE_READ_MODELS = [
  'session_messages',
  'sessions',
  'user_stream_stats',
  'activity_events',
] as const;
/** The prefix of the tables the minimal app writes: copies of Engram's, made for a run. */
export const MINIMAL_PREFIX = 'bench_minimal_';

/**
 * Makes the tables the minimal app writes, shaped like Engram's (indexes included): the events table
 * empty, as the raw INSERTs' is; with `readModels`, the read models with their rows copied, so that
 * its upserts find what Engram's projections find. The function returned drops them.
 */
export async function minimalAppTables(
  pool: Pool,
  readModels = false,
): Promise<() => Promise<void>> {
  const copies = readModels ? INLINE_READ_MODELS : [];
  const names = ['events', ...copies];
  for (const name of names) {
    await pool.query(`DROP TABLE IF EXISTS ${MINIMAL_PREFIX}${name}`);
    await pool.query(`CREATE TABLE ${MINIMAL_PREFIX}${name} (LIKE ${name} INCLUDING ALL)`);
  }
  for (const name of copies) {
    await pool.query(`INSERT INTO ${MINIMAL_PREFIX}${name} SELECT * FROM ${name}`);
    await pool.query(`VACUUM ANALYZE ${MINIMAL_PREFIX}${name}`);
  }
  return async () => {
    for (const name of names) await pool.query(`DROP TABLE ${MINIMAL_PREFIX}${name}`);
  };
}

export function startMinimalApp(
  databases: Readonly<{
    writeUrl?: string;
    table?: string;
    /** The prefix of the read-model tables the message route writes beside the event (inline). */
    readModels?: string;
    readUrl?: string;
    /** With helmet, a log line per request and a latency histogram, the stock way. */
    production?: boolean;
    /** On NestJS's Fastify adapter (Engram's server) rather than its default, Express. */
    fastify?: boolean;
  }> = {},
): Promise<EngramProcess<'minimal-app'>> {
  return startBuiltScript('minimal-app', MINIMAL_APP_SCRIPT, minimalAppEnvironment(databases));
}

/** The built minimal app. */
export const MINIMAL_APP_SCRIPT = join(DIST, 'bench', 'baseline', 'minimal-nest-app.js');

/** The environment the minimal app reads its databases and variant from. */
export function minimalAppEnvironment(
  databases: Parameters<typeof startMinimalApp>[0] = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ENGRAM_JWT_SECRET: BENCH_JWT_SECRET,
    PORT: '0',
    ...(databases.writeUrl ? { MINIMAL_APP_WRITE_URL: databases.writeUrl } : {}),
    ...(databases.table ? { MINIMAL_APP_TABLE: databases.table } : {}),
    ...(databases.readModels ? { MINIMAL_APP_READ_MODELS: databases.readModels } : {}),
    ...(databases.readUrl ? { MINIMAL_APP_READ_URL: databases.readUrl } : {}),
    ...(databases.production ? { MINIMAL_APP_PRODUCTION: '1' } : {}),
    ...(databases.fastify ? { MINIMAL_APP_FASTIFY: '1' } : {}),
  };
}
