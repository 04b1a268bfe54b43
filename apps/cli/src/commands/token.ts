import { defaultTokenLifetime, mintToken } from '@engram/auth/tokens';
import {
  formatDuration,
  parseDurationSeconds,
  serverSigningSecret,
  type EngramConfig,
} from '@engram/config';
import { ROLES, isIdentifier, type Role } from '@engram/domain';
import type { CliArgs } from '../args';

export const TOKEN_USAGE =
  'token --ws <workspace> --user <user> --roles agent[,admin,user,auditor] [--ttl 12h]';

export type TokenOutput = Readonly<{
  token: (token: string) => void;
  note: (text: string) => void;
}>;

/**
 * Prints a development token (stdout) signed with the secret the server verifies tokens with, and
 * says on stderr which secret that was. It needs neither the database nor the server: only the
 * configuration and, in the embedded default, the secrets file (see serverSigningSecret).
 */
export async function tokenCommand(
  config: EngramConfig,
  args: CliArgs,
  output: TokenOutput,
): Promise<void> {
  const { ws, user, roles, ttl } = args.values;
  if (!isIdentifier(ws)) throw new Error(`--ws must be an identifier. Usage: ${TOKEN_USAGE}`);
  if (!isIdentifier(user)) throw new Error(`--user must be an identifier. Usage: ${TOKEN_USAGE}`);
  const list = String(roles ?? 'user')
    .split(',')
    .map((role) => role.trim());
  const unknown = list.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0)
    throw new Error(`unknown role(s) ${unknown.join(', ')}; roles are ${ROLES.join(', ')}`);
  const lifetime = tokenLifetime(ttl, config.jwt.maxAgeSeconds);
  const { secret, source } = serverSigningSecret(config);
  const token = await mintToken(
    secret,
    { userId: user, workspaceId: ws, roles: list as Role[] },
    lifetime,
  );
  output.token(token);
  output.note(
    `Token for ${user} in workspace ${ws} (${list.join(', ')}), valid ${formatDuration(lifetime)}, ` +
      `signed with ${source}`,
  );
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
