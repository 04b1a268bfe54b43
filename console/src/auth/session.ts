import { decodeClaims, type Claims } from './claims';

/** sessionStorage: the token lives as long as the tab, and is never sent anywhere but the API. */
const TOKEN_KEY = 'engram.console.token';

export type Session = Readonly<{ token: string; claims: Claims }>;

export function loadSession(): Session | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const claims = token ? decodeClaims(token) : null;
  return token && claims ? { token, claims } : null;
}

export function saveSession(token: string): Session | null {
  const claims = decodeClaims(token);
  if (!claims) return null;
  sessionStorage.setItem(TOKEN_KEY, token.trim());
  return { token: token.trim(), claims };
}

export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
