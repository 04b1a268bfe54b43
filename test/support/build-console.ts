import { join } from 'node:path';
import { ROOT, buildIfStale } from './build-if-stale';

/** Builds the web console once per test run, only when a source is newer than the last build. */
export function buildConsoleIfStale(): void {
  buildIfStale([join(ROOT, 'console')], join(ROOT, 'dist', 'console', 'index.html'), [
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'console/vite.config.mjs',
    ],
  ]);
}
