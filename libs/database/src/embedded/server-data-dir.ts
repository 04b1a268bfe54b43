import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmdirSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresError } from './embedded-postgres-error';
import { canEnter, type ServerUser } from './server-user';

export type ServerDataDir = Readonly<{
  /** The folder the server is given (`postgres -D`): the data folder, or where it was moved to. */
  path: string;
  /** The data lives elsewhere (`path`), linked from the data folder: its user cannot enter the folder. */
  relocated: boolean;
}>;

/**
 * A data folder the server's user can enter and owns (PostgreSQL insists on 0700, owned by it).
 * As root, when the postgres user cannot reach `dataDir` (ENGRAM_DATA_DIR in a clone under /root),
 * the data lives in a folder of its own under `shareDir`, and `dataDir` becomes a symbolic link to
 * it: Engram still finds its server (postmaster.pid, PG_VERSION) through `dataDir`, a moved clone
 * keeps its database, and removing `dataDir` starts afresh as it does without the link.
 */
export function serverDataDir(dataDir: string, user: ServerUser, shareDir: string): ServerDataDir {
  try {
    if (isLink(dataDir)) return { path: existingTarget(dataDir), relocated: true };
    mkdirSync(dirname(dataDir), { recursive: true });
    if (canEnter(user, dirname(dataDir))) {
      ownedBy(user, dataDir);
      return { path: dataDir, relocated: false };
    }
    return { path: linkedElsewhere(dataDir, user!, shareDir), relocated: true };
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(
      `its data folder ${dataDir} cannot be used (${(error as Error).message})`,
      'give it a folder that can be written (ENGRAM_DATA_DIR)',
    );
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function existingTarget(link: string): string {
  if (!existsSync(link)) {
    throw new EmbeddedPostgresError(
      `its data folder ${link} is a link to a folder that no longer exists`,
      'remove the link to start with an empty database',
    );
  }
  return realpathSync(link);
}

function ownedBy(user: ServerUser, dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
}

function linkedElsewhere(dataDir: string, user: NonNullable<ServerUser>, shareDir: string): string {
  if (existsSync(dataDir)) {
    // A start before this fix left an empty folder behind (initdb could not run); data is never moved.
    if (readdirSync(dataDir).length > 0) {
      throw new EmbeddedPostgresError(
        `the ${user.name} user it runs as cannot enter ${dirname(dataDir)}, where its data is`,
        `move ENGRAM_DATA_DIR to a folder that user can enter (such as ${join(shareDir, 'data')})`,
      );
    }
    rmdirSync(dataDir);
  }
  const clusters = join(shareDir, 'data');
  mkdirSync(clusters, { recursive: true, mode: 0o755 });
  if (!canEnter(user, clusters)) {
    throw new EmbeddedPostgresError(
      `the ${user.name} user it runs as can enter neither ${dirname(dataDir)} nor ${clusters}`,
      `let it enter ${clusters} (chmod 755) or move ENGRAM_DATA_DIR to a folder it can enter`,
    );
  }
  const target = join(clusters, randomBytes(6).toString('hex'));
  ownedBy(user, target);
  symlinkSync(target, dataDir, 'dir');
  return target;
}
