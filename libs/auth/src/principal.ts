import { ROLES, isIdentifier, type Role } from '@engram/domain';

/**
 * Who is calling, from a verified token: `sub` is the user (or the agent service) id. A service key
 * also names itself (`keyId`: its rate limit and its last use are counted by key).
 */
export type Principal = Readonly<{
  userId: string;
  workspaceId: string;
  roles: readonly Role[];
  keyId?: string;
}>;

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

export function principalFromClaims(claims: Record<string, unknown>): Principal {
  const { sub, ws, roles } = claims;
  if (!isIdentifier(sub)) throw new InvalidTokenError('claim "sub" must be an identifier');
  if (!isIdentifier(ws)) throw new InvalidTokenError('claim "ws" must be an identifier');
  if (!Array.isArray(roles) || roles.length === 0) {
    throw new InvalidTokenError(`claim "roles" must be a non-empty list of ${ROLES.join(', ')}`);
  }
  const unknown = roles.filter((role) => !(ROLES as readonly unknown[]).includes(role));
  if (unknown.length > 0) {
    throw new InvalidTokenError(`claim "roles" holds unknown roles: ${unknown.join(', ')}`);
  }
  return { userId: sub, workspaceId: ws, roles: roles as Role[] };
}
