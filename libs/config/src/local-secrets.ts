import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config';

/**
 * Secrets of the embedded default, generated on first start in the data folder (mode 0600).
 * Production sets them through the environment instead.
 */
export type LocalSecrets = Readonly<{
  jwtSecret: string;
  databasePassword: string;
  /** Base64 of the 32-byte master key that wraps the users' data keys (ENGRAM_MASTER_KEY in production). */
  masterKey: string;
}>;

export type LoadedLocalSecrets = {
  secrets: LocalSecrets;
  /** The file did not exist: every secret in it was generated now. */
  created: boolean;
  /** Secrets missing from an existing file (written by an older version), generated and saved now. */
  added: readonly (keyof LocalSecrets)[];
};

const GENERATORS: Readonly<Record<keyof LocalSecrets, () => string>> = {
  jwtSecret: () => randomBytes(32).toString('base64url'),
  databasePassword: () => randomBytes(18).toString('base64url'),
  masterKey: () => randomBytes(32).toString('base64'),
};

export function loadOrCreateLocalSecrets(dataDir: string): LoadedLocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const existing = readExisting(file);
  const secrets: Record<string, string> = {};
  const added: (keyof LocalSecrets)[] = [];
  for (const [name, generate] of Object.entries(GENERATORS) as [
    keyof LocalSecrets,
    () => string,
  ][]) {
    const value = existing?.[name];
    if (typeof value === 'string' && value !== '') {
      secrets[name] = value;
    } else {
      secrets[name] = generate();
      added.push(name);
    }
  }
  if (existing === undefined || added.length > 0) {
    mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    // Keep whatever else the file held; only fill in what was missing.
    writeFileSync(file, JSON.stringify({ ...existing, ...secrets }, null, 2), { mode: 0o600 });
  }
  return {
    secrets: secrets as LocalSecrets,
    created: existing === undefined,
    added: existing === undefined ? [] : added,
  };
}

/** After a master-key rotation of the embedded default: the secrets file gets the new key. */
export function saveLocalMasterKey(dataDir: string, masterKey: string): void {
  const file = join(dataDir, 'secrets.json');
  const existing = readExisting(file);
  if (existing === undefined) throw new ConfigError(file, 'does not exist');
  writeFileSync(file, JSON.stringify({ ...existing, masterKey }, null, 2), { mode: 0o600 });
}

type StoredSecrets = Partial<Record<keyof LocalSecrets, unknown>>;

/**
 * The secrets file as it is, generating nothing: for tools that must use the server's secrets
 * (`npm run token`) rather than make new ones. Undefined when there is none yet.
 */
export function readLocalSecrets(dataDir: string): StoredSecrets | undefined {
  return readExisting(join(dataDir, 'secrets.json'));
}

/**
 * The secrets file, or undefined when there is none yet. A file that exists but cannot be read is an
 * error, never silently replaced: it holds the master key, without which personal data is lost.
 */
function readExisting(file: string): StoredSecrets | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    return parsed;
  } catch {
    throw new ConfigError(
      file,
      'is not a JSON object: restore it from a backup (it holds the master key of the personal data)',
    );
  }
}
