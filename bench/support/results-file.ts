import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions } from './options';
import type { ScenarioResult } from './result';

/** Writes the run to `<dir>/<date>.json` (default bench/results) and answers the file's path. */
export function writeResults(
  dir: string,
  options: BenchOptions,
  results: Readonly<Record<string, ScenarioResult>>,
  startedAt: Date,
): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${startedAt.toISOString().slice(0, 19).replace(/:/g, '-')}.json`);
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  const { serverUrl: _serverUrl, ...sizes } = options;
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt, durationSeconds: (Date.now() - startedAt.getTime()) / 1000, machine, options: sizes, results }, null, 2)}\n`,
  );
  return file;
}
