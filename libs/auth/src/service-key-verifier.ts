import type { Principal } from './principal';

/**
 * What marks a bearer as a service key rather than a JWT (`egk_<keyId>_<secret>`): a JWT starts with
 * its base64url header (`eyJ`), so the two never collide.
 */
export const SERVICE_KEY_PREFIX = 'egk_';

export function looksLikeServiceKey(bearer: string): boolean {
  return bearer.startsWith(SERVICE_KEY_PREFIX);
}

/**
 * The port through which AuthGuard authenticates service keys of agents. The API implements it over
 * its read model (libs/auth imports no read model); it answers the key's principal
 * (`{ userId: agentId, workspaceId, roles: ['agent'], keyId }`) or throws `InvalidTokenError` with
 * a message that never says whether a key id exists.
 */
export abstract class ServiceKeyVerifier {
  abstract verify(key: string): Promise<Principal>;
}
