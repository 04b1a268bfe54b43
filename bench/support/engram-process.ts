import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchDatabase } from './bench-database';
import { LoggedProblems } from './logged-problems';
import { BENCH_JWT_SECRET, BENCH_MASTER_KEY } from './secrets';

/** The root of the build (dist/), where the scripts the bench starts live. */
export const DIST = join(__dirname, '..', '..');
const MAIN = {
  api: join(DIST, 'apps', 'api', 'src', 'main.js'),
  worker: join(DIST, 'apps', 'worker', 'src', 'main.js'),
};

/** A built API or worker running as its own process, so that its memory is measured on its own. */
export type EngramProcess<Kind extends string = 'api' | 'worker'> = Readonly<{
  kind: Kind;
  child: ChildProcess;
  /** The API's base URL (http://127.0.0.1:port); empty for the worker. */
  url: string;
  /** Highest resident set size so far, in MiB (VmHWM of /proc/<pid>/status). */
  peakRssMiB: () => number;
  /** What it logged at `warn` or above so far, by message. */
  problems: LoggedProblems;
  stop: () => Promise<void>;
}>;

/**
 * Starts the process and resolves once it is ready (the API listens, the worker runs); at the
 * scheduling priority `nice` (`nice -n`, 0 by default), as a deployment may run a worker role.
 */
export async function startEngram(
  kind: 'api' | 'worker',
  database: BenchDatabase,
  env: Record<string, string> = {},
  nice = 0,
): Promise<EngramProcess> {
  return startBuiltScript(kind, MAIN[kind], engramEnvironment(database, env), nice);
}

/**
 * Any built script of dist/ as its own process (a baseline app too), ready once it prints
 * `listening on <url>` (or `Worker running`).
 */
export async function startBuiltScript<Kind extends string>(
  kind: Kind,
  script: string,
  env: NodeJS.ProcessEnv,
  nice = 0,
): Promise<EngramProcess<Kind>> {
  const command = [process.execPath, ...nodeFlags(kind), script];
  // nice(1) execs the command: the child's pid is the script's, as its CPU count needs.
  const [file, ...args] = nice === 0 ? command : ['nice', '-n', String(nice), ...command];
  const child = spawn(file!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let onReady: (url: string) => void = () => undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    const match = /listening on (http:\/\/\S+)|Worker running/.exec(output);
    if (match) onReady((match[1] ?? '').replace('localhost', '127.0.0.1'));
  };
  const ready = new Promise<string>((resolve, reject) => {
    onReady = resolve;
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${kind} exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const url = await ready;
  // Keep reading so that a full pipe never blocks the process, keeping only its warnings and errors.
  child.stdout.off('data', onData);
  child.stderr.off('data', onData);
  const problems = new LoggedProblems();
  problems.write(output);
  const onOutput = (chunk: Buffer) => problems.write(chunk.toString());
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  let peak = 0;
  const peakRssMiB = () => {
    peak = Math.max(peak, readPeakRss(child.pid!));
    return peak;
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    peakRssMiB();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { kind, child, url, peakRssMiB, problems, stop };
}

/** The environment the processes run with (the CLI run against the same database needs it too). */
export function engramEnvironment(
  database: BenchDatabase,
  env: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: database.ownerUrl,
    ENGRAM_JWT_SECRET: BENCH_JWT_SECRET,
    ENGRAM_MASTER_KEY: BENCH_MASTER_KEY.toString('base64'),
    ENGRAM_RUN_WORKER: 'false',
    PORT: '0',
    ENGRAM_METRICS_PORT: '0',
    ...passThrough('ENGRAM_APP_DB_PASSWORD', 'ENGRAM_PROJECTOR_DB_PASSWORD'),
    ...env,
  };
}

function nodeFlags(kind: string): string[] {
  const profileDir = process.env.ENGRAM_BENCH_CPU_PROF;
  return profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, kind)}`] : [];
}

function passThrough(...names: string[]): Record<string, string> {
  return Object.fromEntries(
    names
      .filter((name) => process.env[name] !== undefined)
      .map((name) => [name, process.env[name]!]),
  );
}

function readPeakRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    return kib / 1024;
  } catch {
    return 0;
  }
}
