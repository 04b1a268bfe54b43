import { SignJWT } from 'jose';
import type { Role } from '@engram/domain';

/** What a development token lives unless told otherwise (within ENGRAM_JWT_MAX_AGE, 24 h by default). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 12 * 3600;

/**
 * Signs an HS256 development token (CLI `token`, tests, the console's demo shortcut). It carries
 * `iat` and an `exp` that many seconds later: the verifier refuses tokens without them, or living
 * longer than its cap.
 */
export async function mintToken(
  secret: string,
  claims: Readonly<{ userId: string; workspaceId: string; roles: readonly Role[] }>,
  lifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS,
): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ ws: claims.workspaceId, roles: [...claims.roles] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(new TextEncoder().encode(secret));
}

/** The lifetime a minted token gets: the default, shortened to the verifier's cap when that is lower. */
export function defaultTokenLifetime(maxAgeSeconds: number): number {
  return Math.min(DEFAULT_TOKEN_LIFETIME_SECONDS, maxAgeSeconds);
}
