import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresError } from './embedded-postgres-error';
import type { ServerBinaries } from './server-binaries';
import type { ServerUser } from './server-user';

/** PostgreSQL's messages in English whatever the machine's language: readiness is read from them. */
const MESSAGES_LOCALE = 'C';
const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 60_000;

export type ServerProcess = Readonly<{ stop: () => Promise<void> }>;

type Where = Readonly<{
  binaries: ServerBinaries;
  dataDir: string;
  user: ServerUser;
  onLog: (line: string) => void;
}>;

/** initdb: a new cluster in `dataDir` (empty, owned by the server's user) with `password` for postgres. */
export async function initialiseCluster(where: Where, password: string): Promise<void> {
  // The password goes through a file that only the server's user can read, beside the data folder.
  const passwordFile = join(dirname(where.dataDir), `.pwfile-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (where.user !== undefined) chownSync(passwordFile, where.user.uid, where.user.gid);
    const initdb = run(where, where.binaries.initdb, [
      `--pgdata=${where.dataDir}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      `--lc-messages=${MESSAGES_LOCALE}`,
    ]);
    const code = await initdb.exited;
    if (initdb.cannotRun()) throw cannotRun(where, where.binaries.initdb, initdb.cannotRun()!);
    if (code !== 0) {
      throw new EmbeddedPostgresError(
        `initdb failed in ${where.dataDir} (${lastError(initdb.lines()) ?? `exit ${code}`})`,
        `empty or remove ${where.dataDir} (it holds no database yet)`,
      );
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Starts the server and resolves once it accepts connections; rejects with why it did not. */
export async function startServer(
  where: Where,
  port: number,
  flags: readonly string[],
): Promise<ServerProcess> {
  const server = run(where, where.binaries.postgres, [
    '-D',
    where.dataDir,
    '-p',
    String(port),
    ...flags,
  ]);
  const ready = await Promise.race([
    server.sawReady,
    server.exited.then(() => false),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), START_TIMEOUT_MS).unref()),
  ]);
  if (!ready) {
    server.child.kill('SIGINT');
    if (server.cannotRun()) throw cannotRun(where, where.binaries.postgres, server.cannotRun()!);
    throw new EmbeddedPostgresError(...explain(server.lines(), port, where.dataDir));
  }
  // The server is a child of this process: when it exits in any way, the server is told to stop.
  const stopOnExit = () => server.child.kill('SIGINT');
  process.once('exit', stopOnExit);
  return {
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      if (server.child.exitCode !== null || server.child.signalCode !== null) return;
      server.child.kill('SIGINT');
      await server.exited;
    },
  };
}

/** The reason and the remedy, from what the server printed before it stopped. */
function explain(lines: readonly string[], port: number, dataDir: string): [string, string] {
  const printed = lines.join('\n');
  if (/address already in use/i.test(printed))
    return [`port ${port} is in use`, `free port ${port}`];
  const said = lastError(lines);
  if (said === undefined) {
    return [
      `the server did not accept connections on port ${port} within ${START_TIMEOUT_MS / 1000} s`,
      'make sure this machine can run it',
    ];
  }
  if (/lock file .* already exists/i.test(said)) {
    return [said, `stop the other server that uses ${dataDir} (its pid is in postmaster.pid)`];
  }
  if (/permission/i.test(said)) return [said, `give the server's user access to ${dataDir}`];
  return [said, 'fix what PostgreSQL reports'];
}

/** The last error a PostgreSQL program printed (a FATAL, ERROR or PANIC line, or initdb's "error:"). */
function lastError(lines: readonly string[]): string | undefined {
  for (const line of [...lines].reverse()) {
    const error = /\b(?:FATAL|ERROR|PANIC|error):\s+(.*)$/.exec(line);
    if (error) return error[1]!.trim();
  }
  return undefined;
}

function cannotRun(where: Where, program: string, code: string): EmbeddedPostgresError {
  const who = where.user === undefined ? 'this user' : `the ${where.user.name} user`;
  return new EmbeddedPostgresError(
    `${program} cannot be run by ${who} (${code})`,
    `let ${who} run it, or reinstall the dependencies with npm ci`,
  );
}

type Running = Readonly<{
  child: ChildProcess;
  exited: Promise<number | null>;
  sawReady: Promise<true>;
  /** The last lines the program printed (kept to explain a failure). */
  lines: () => readonly string[];
  /** Why the program could not be run at all (EACCES, ENOENT), if it could not. */
  cannotRun: () => string | undefined;
}>;

function run(where: Where, program: string, args: readonly string[]): Running {
  const child = spawn(program, args, {
    ...(where.user === undefined ? {} : { uid: where.user.uid, gid: where.user.gid }),
    // Our folder may be closed to the server's user (a clone in /root): start it where it may be.
    cwd: dirname(where.dataDir),
    env: { ...process.env, LC_MESSAGES: MESSAGES_LOCALE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let cannotRun: string | undefined;
  let markReady: (ready: true) => void = () => undefined;
  const sawReady = new Promise<true>((resolve) => (markReady = resolve));
  const partial = { stdout: '', stderr: '' };
  const read = (stream: keyof typeof partial) => (chunk: Buffer) => {
    // A chunk may end in the middle of a line: its end waits for the next chunk.
    const complete = (partial[stream] + chunk.toString('utf8')).split('\n');
    partial[stream] = complete.pop() ?? '';
    for (const line of complete) {
      if (line.trim() === '') continue;
      where.onLog(line);
      lines.push(line);
      if (lines.length > 50) lines.shift();
      if (line.includes(READY)) markReady(true);
    }
  };
  child.stdout?.on('data', read('stdout'));
  child.stderr?.on('data', read('stderr'));
  const exited = new Promise<number | null>((resolve) => {
    // Spawning itself can fail (EACCES, ENOENT): an 'error' event, never followed by 'close'.
    child.once('error', (error: NodeJS.ErrnoException) => {
      cannotRun = error.code ?? error.message;
      resolve(null);
    });
    child.once('close', (code) => resolve(code));
  });
  return {
    child,
    exited,
    sawReady,
    lines: () => lines,
    cannotRun: () => cannotRun,
  };
}
