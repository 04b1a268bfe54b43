import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { asEmbeddedPostgresError } from './embedded-postgres-error';
import { packagedServer, reachableBinaries, type PackagedServer } from './server-binaries';
import { serverDataDir } from './server-data-dir';
import { initialiseCluster, startServer } from './server-process';
import { serverUser } from './server-user';

export type EmbeddedPostgresHandle = Readonly<{ url: string; stop: () => Promise<void> }>;

/**
 * Where, as root, the server's binaries are copied and its data kept when the postgres user cannot
 * enter the clone: a root-owned folder of mode 0755 outside every home folder.
 */
export const ROOT_SHARE_DIR = '/var/lib/engram';

/**
 * Starts a PostgreSQL server from the binaries the embedded-postgres package ships, with its data in
 * `dataDir` (created and initialised on first use). As root it runs the server as a `postgres` system
 * user, created when missing, and makes sure that user can reach both (see reachableBinaries and
 * serverDataDir). Any failure is an EmbeddedPostgresError: one sentence with its remedy.
 */
export async function startEmbeddedPostgres(
  options: Readonly<{
    dataDir: string;
    password: string;
    /** A fixed port (a server restarted on the same data keeps its URL); a free one by default. */
    port?: number;
    onLog?: (line: string) => void;
    /** Told where the data lives when it cannot stay in `dataDir` (see serverDataDir). */
    onNotice?: (message: string) => void;
    /** The PostgreSQL to run: this platform's package by default (tests give a copy elsewhere). */
    packaged?: PackagedServer;
    /** As root: where binaries and data go when the postgres user cannot reach them. */
    shareDir?: string;
  }>,
): Promise<EmbeddedPostgresHandle> {
  try {
    const running = runningServerPort(options.dataDir);
    if (running !== undefined) {
      // Another Engram process (the API, when this is the CLI) already serves this folder: share it.
      return { url: urlOf(options.password, running), stop: () => Promise.resolve() };
    }
    const shareDir = options.shareDir ?? ROOT_SHARE_DIR;
    const user = serverUser();
    const binaries = reachableBinaries(options.packaged ?? packagedServer(), user, shareDir);
    const data = serverDataDir(options.dataDir, user, shareDir);
    if (data.relocated) {
      options.onNotice?.(
        `The ${user?.name} user that runs PostgreSQL cannot enter ${dirname(options.dataDir)}: ` +
          `its data is in ${data.path}, linked from ${options.dataDir}`,
      );
    }
    const where = { binaries, dataDir: data.path, user, onLog: options.onLog ?? (() => undefined) };
    if (!existsSync(join(data.path, 'PG_VERSION')))
      await initialiseCluster(where, options.password);
    const port = options.port ?? (await freePort());
    const server = await startServer(where, port, ['-c', 'listen_addresses=127.0.0.1']);
    return { url: urlOf(options.password, port), stop: server.stop };
  } catch (error) {
    throw asEmbeddedPostgresError(error);
  }
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
  } catch (error) {
    // EPERM: alive, but another user's (the postgres user's, seen by someone else than root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
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
