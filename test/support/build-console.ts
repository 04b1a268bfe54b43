import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SOURCES = join(ROOT, 'console');
const BUILT_INDEX = join(ROOT, 'dist', 'console', 'index.html');

/** Builds the web console once per test run, only when a source is newer than the last build. */
export function buildConsoleIfStale(): void {
  if (existsSync(BUILT_INDEX) && newestModification(SOURCES) <= statSync(BUILT_INDEX).mtimeMs)
    return;
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'console/vite.config.mjs',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

function newestModification(directory: string): number {
  return readdirSync(directory, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(directory, entry.name);
    const time = entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs;
    return Math.max(newest, time);
  }, 0);
}
