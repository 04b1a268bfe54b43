import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Runs `commands` (each a node script and its arguments) when a source is newer than `output`. */
export function buildIfStale(
  sources: readonly string[],
  output: string,
  commands: readonly (readonly string[])[],
): void {
  const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0;
  if (sources.every((source) => newestModification(source) <= builtAt)) return;
  for (const command of commands) {
    execFileSync(process.execPath, command, { cwd: ROOT, stdio: 'inherit' });
  }
}

function newestModification(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path, { withFileTypes: true }).reduce(
    (newest, entry) =>
      entry.name === 'node_modules'
        ? newest
        : Math.max(newest, newestModification(join(path, entry.name))),
    0,
  );
}
