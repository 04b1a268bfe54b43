import { SignJWT } from 'jose';
import type { Role } from '@engram/domain';

/** Signs an HS256 development token (CLI `token`, tests, the console's demo shortcut). */
export async function mintToken(
  secret: string,
  claims: Readonly<{ userId: string; workspaceId: string; roles: readonly Role[] }>,
  expiresIn = '12h',
): Promise<string> {
  return new SignJWT({ ws: claims.workspaceId, roles: [...claims.roles] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}
