import { spawn, type ChildProcess } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { BUILT_API, BUILT_WORKER } from './built-server';
import type { TestDatabase } from './test-database';
import { TEST_ROLE_PASSWORDS } from './test-database';
import { TEST_JWT_SECRET, TEST_MASTER_KEY } from './test-runtime';

export type EngramProcess = Readonly<{
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** What it printed on stderr alone. */
  errors: () => string;
  /** Resolves with the first match of `pattern` in the output (rejects after `timeoutMs`). */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  /** Resolves once the process ended and everything it printed was read. */
  closed: Promise<void>;
}>;

/** Starts the built worker or API as a real process on a test database (crash and restart tests). */
export function spawnEngram(
  kind: 'worker' | 'api',
  database: TestDatabase,
  env: Record<string, string> = {},
): EngramProcess {
  return spawnBuilt(kind === 'worker' ? BUILT_WORKER : BUILT_API, {
    DATABASE_URL: database.ownerUrl,
    ENGRAM_JWT_SECRET: TEST_JWT_SECRET,
    ENGRAM_MASTER_KEY: TEST_MASTER_KEY.toString('base64'),
    ENGRAM_APP_DB_PASSWORD: TEST_ROLE_PASSWORDS.app,
    ENGRAM_PROJECTOR_DB_PASSWORD: TEST_ROLE_PASSWORDS.projector,
    PORT: '0',
    ...env,
  });
}

/** Runs a built entry point (BUILT_API, BUILT_CLI...) with `env` and PATH only, from `cwd`. */
export function spawnBuilt(
  script: string,
  env: Record<string, string>,
  options: Readonly<{ args?: readonly string[]; cwd?: string }> = {},
): EngramProcess {
  const kind = basename(dirname(dirname(script)));
  const child = spawn(process.execPath, [script, ...(options.args ?? [])], {
    env: { PATH: process.env.PATH, ...env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      resolve(code ?? signal ?? 'unknown');
      for (const wake of waiters) wake();
    });
  });
  const waitFor = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = output.match(pattern);
        if (match) {
          done();
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`${kind} exited before printing ${pattern}:\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${kind} did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { child, output: () => output, errors: () => errors, waitFor, exited, closed };
}
