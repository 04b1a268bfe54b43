import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets of the embedded default, generated on first start in the data folder (mode 0600).
 * Production sets them through the environment instead.
 */
export type LocalSecrets = Readonly<{ jwtSecret: string; databasePassword: string }>;

export function loadOrCreateLocalSecrets(dataDir: string): {
  secrets: LocalSecrets;
  created: boolean;
} {
  const file = join(dataDir, 'secrets.json');
  try {
    return { secrets: JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets, created: false };
  } catch {
    const secrets: LocalSecrets = {
      jwtSecret: randomBytes(32).toString('base64url'),
      databasePassword: randomBytes(18).toString('base64url'),
    };
    mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return { secrets, created: true };
  }
}
