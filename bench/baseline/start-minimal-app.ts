import { join } from 'node:path';
import { DIST, startBuiltScript, type EngramProcess } from '../support/engram-process';
import { BENCH_JWT_SECRET } from '../support/secrets';

/** The minimal NestJS app (minimal-nest-app.ts) as its own process, checking the bench's tokens. */
export function startMinimalApp(): Promise<EngramProcess<'minimal-app'>> {
  return startBuiltScript('minimal-app', join(DIST, 'bench', 'baseline', 'minimal-nest-app.js'), {
    PATH: process.env.PATH,
    ENGRAM_JWT_SECRET: BENCH_JWT_SECRET,
    PORT: '0',
  });
}
