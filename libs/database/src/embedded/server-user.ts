import { spawnSync } from 'node:child_process';
import { EmbeddedPostgresError } from './embedded-postgres-error';

/** Who the server runs as: ourselves (undefined), or, as root, the `postgres` system user. */
export type ServerUser = Readonly<{ name: string; uid: number; gid: number }> | undefined;

const SERVER_USER = 'postgres';

/**
 * PostgreSQL refuses to run as root: as root the server runs as the `postgres` system user,
 * created when missing (a fresh container has none).
 */
export function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return undefined;
  return lookUp(SERVER_USER) ?? create(SERVER_USER);
}

/**
 * Whether `user` can enter `path` (search permission on it and on every folder above it): a clone
 * in /root (0700) cannot be entered by the postgres user, so its binaries and data must live
 * elsewhere. Asked of the system rather than worked out from modes, so ACLs count too.
 */
export function canEnter(user: ServerUser, path: string): boolean {
  if (user === undefined) return true;
  const test = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    stdio: 'ignore',
  });
  return test.status === 0;
}

function lookUp(name: string): ServerUser {
  const uid = idOf(name, '-u');
  const gid = idOf(name, '-g');
  return uid === undefined || gid === undefined ? undefined : { name, uid, gid };
}

function idOf(name: string, flag: '-u' | '-g'): number | undefined {
  const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
  const id = Number(result.stdout?.trim());
  return result.status === 0 && Number.isInteger(id) ? id : undefined;
}

function create(name: string): ServerUser {
  for (const [command, args] of [
    ['groupadd', ['--system', name]],
    ['useradd', ['--system', '--gid', name, '--no-create-home', '--shell', '/bin/false', name]],
  ] as const) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    // groupadd answers 9 when the group exists already (a user removed, its group left).
    if (result.status === 0 || (command === 'groupadd' && result.status === 9)) continue;
    const said = result.error?.message ?? result.stderr?.trim() ?? `exit ${result.status}`;
    throw new EmbeddedPostgresError(
      `as root it runs as the ${name} system user, which could not be created (${command}: ${said})`,
      `create that user yourself (useradd --system ${name}) or run Engram as another user`,
    );
  }
  const created = lookUp(name);
  if (created === undefined) {
    throw new EmbeddedPostgresError(
      `the ${name} system user it created cannot be found`,
      `create it yourself (useradd --system ${name}) or run Engram as another user`,
    );
  }
  return created;
}
