import { join } from 'node:path';
import type { EngramConfig } from './config';
import { readLocalSecrets } from './local-secrets';

/** The HS256 secret the server verifies tokens with, and where it was read. */
export type SigningSecret = Readonly<{ secret: string; source: string }>;

/** There is no secret to sign with: the message says why and what to do. */
export class NoSigningSecretError extends Error {
  override readonly name = 'NoSigningSecretError';
}

/**
 * The secret a server with this configuration verifies HS256 tokens with, found without starting it
 * (prepareRuntime follows the same rule): ENGRAM_JWT_SECRET when set, otherwise, in the embedded
 * default, the one generated in the data folder's secrets.json. Nothing is generated here: a token
 * signed with a new secret would be refused by the server that made the old one.
 */
export function serverSigningSecret(config: EngramConfig): SigningSecret {
  if (config.jwt.secret !== undefined) {
    return { secret: config.jwt.secret, source: 'ENGRAM_JWT_SECRET' };
  }
  if (config.jwt.jwksUrl !== undefined) {
    throw new NoSigningSecretError(
      'no ENGRAM_JWT_SECRET: this server takes tokens from your identity provider (ENGRAM_JWKS_URL); ' +
        'get one there, or set ENGRAM_JWT_SECRET to the secret the server was given',
    );
  }
  if (config.databaseUrl !== undefined) {
    throw new NoSigningSecretError(
      'no ENGRAM_JWT_SECRET: with DATABASE_URL the server verifies tokens with it; set it here to the ' +
        "server's value",
    );
  }
  const file = join(config.dataDir, 'secrets.json');
  const secret = readLocalSecrets(config.dataDir)?.jwtSecret;
  if (typeof secret !== 'string' || secret === '') {
    throw new NoSigningSecretError(
      `no secret to sign with: ${file} does not hold one yet; run npm start once (it generates it ` +
        'there), or set ENGRAM_JWT_SECRET to the secret the server was given',
    );
  }
  return { secret, source: `the embedded default's secret in ${file}` };
}
