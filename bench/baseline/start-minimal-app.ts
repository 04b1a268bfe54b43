import { join } from 'node:path';
import { DIST, startBuiltScript, type EngramProcess } from '../support/engram-process';
import { BENCH_JWT_SECRET } from '../support/secrets';

/**
 * The minimal NestJS app (minimal-nest-app.ts) as its own process, checking the bench's tokens;
 * `databases` gives it the table it appends to and the connection it reads contexts through,
 * `production` the middleware a production service adds.
 */
export function startMinimalApp(
  databases: Readonly<{
    writeUrl?: string;
    table?: string;
    readUrl?: string;
    /** With helmet, a log line per request and a latency histogram, the stock way. */
    production?: boolean;
    /** On NestJS's Fastify adapter (Engram's server) rather than its default, Express. */
    fastify?: boolean;
  }> = {},
): Promise<EngramProcess<'minimal-app'>> {
  return startBuiltScript('minimal-app', join(DIST, 'bench', 'baseline', 'minimal-nest-app.js'), {
    PATH: process.env.PATH,
    ENGRAM_JWT_SECRET: BENCH_JWT_SECRET,
    PORT: '0',
    ...(databases.writeUrl ? { MINIMAL_APP_WRITE_URL: databases.writeUrl } : {}),
    ...(databases.table ? { MINIMAL_APP_TABLE: databases.table } : {}),
    ...(databases.readUrl ? { MINIMAL_APP_READ_URL: databases.readUrl } : {}),
    ...(databases.production ? { MINIMAL_APP_PRODUCTION: '1' } : {}),
    ...(databases.fastify ? { MINIMAL_APP_FASTIFY: '1' } : {}),
  });
}
