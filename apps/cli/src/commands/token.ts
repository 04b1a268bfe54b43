import { defaultTokenLifetime, mintToken } from '@engram/auth';
import { formatDuration, parseDurationSeconds } from '@engram/config';
import { ROLES, isIdentifier, type Role } from '@engram/domain';
import type { Runtime } from '@engram/platform';
import type { CliArgs } from '../args';

export const TOKEN_USAGE =
  'token --ws <workspace> --user <user> --roles agent[,admin,user,auditor] [--ttl 12h]';

/** Prints a development token signed with the configured (or embedded) HS256 secret. */
export async function tokenCommand(runtime: Runtime, args: CliArgs): Promise<void> {
  const { ws, user, roles, ttl } = args.values;
  if (!isIdentifier(ws)) throw new Error(`--ws must be an identifier. Usage: ${TOKEN_USAGE}`);
  if (!isIdentifier(user)) throw new Error(`--user must be an identifier. Usage: ${TOKEN_USAGE}`);
  const list = String(roles ?? 'user')
    .split(',')
    .map((role) => role.trim());
  const unknown = list.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0)
    throw new Error(`unknown role(s) ${unknown.join(', ')}; roles are ${ROLES.join(', ')}`);
  if (!runtime.jwtSecret)
    throw new Error('no ENGRAM_JWT_SECRET: tokens come from your identity provider (JWKS)');
  const token = await mintToken(
    runtime.jwtSecret,
    { userId: user, workspaceId: ws, roles: list as Role[] },
    tokenLifetime(ttl, runtime.config.jwt.maxAgeSeconds),
  );
  process.stdout.write(`${token}\n`);
}

/** --ttl, or 12 h; never past ENGRAM_JWT_MAX_AGE, which would give a token the API refuses. */
export function tokenLifetime(ttl: string | boolean | undefined, maxAgeSeconds: number): number {
  if (typeof ttl !== 'string') return defaultTokenLifetime(maxAgeSeconds);
  const seconds = parseDurationSeconds(ttl);
  if (seconds === undefined || seconds < 1) {
    throw new Error(`--ttl must be a duration (3600, 30m, 12h, 7d). Usage: ${TOKEN_USAGE}`);
  }
  if (seconds > maxAgeSeconds) {
    throw new Error(
      `--ttl ${ttl} is longer than ENGRAM_JWT_MAX_AGE (${formatDuration(maxAgeSeconds)}): the API would refuse the token`,
    );
  }
  return seconds;
}
