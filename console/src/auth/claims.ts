import { ROLES, type Role } from '../api/types';

export type Claims = Readonly<{
  userId: string;
  workspaceId: string;
  roles: Role[];
  expiresAt?: Date;
}>;

/**
 * The token's claims, read for display and navigation only: the API verifies the signature on
 * every call, the console never trusts these for anything else.
 */
export function decodeClaims(token: string): Claims | null {
  const payload = token.trim().split('.')[1];
  if (payload === undefined) return null;
  try {
    const json = new TextDecoder().decode(base64UrlBytes(payload));
    const claims = JSON.parse(json) as {
      sub?: unknown;
      ws?: unknown;
      roles?: unknown;
      exp?: unknown;
    };
    if (typeof claims.sub !== 'string' || typeof claims.ws !== 'string') return null;
    const roles = Array.isArray(claims.roles)
      ? claims.roles.filter((role): role is Role => (ROLES as readonly unknown[]).includes(role))
      : [];
    return {
      userId: claims.sub,
      workspaceId: claims.ws,
      roles,
      ...(typeof claims.exp === 'number' ? { expiresAt: new Date(claims.exp * 1000) } : {}),
    };
  } catch {
    return null;
  }
}

function base64UrlBytes(text: string): Uint8Array {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
