import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SERVICE_KEY_PREFIX } from '@engram/auth';

const SECRET_BYTES = 32;
const KEY_PATTERN =
  /^egk_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export type MintedAgentKey = Readonly<{ keyId: string; key: string; digest: string }>;

/**
 * A new key: `egk_<keyId>_<secret>`, the secret 256 random bits in base64url. The id in clear lets
 * the verifier find the one row to compare with, instead of hashing against every key.
 */
export function mintAgentKey(): MintedAgentKey {
  const keyId = randomUUID();
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { keyId, key: `${SERVICE_KEY_PREFIX}${keyId}_${secret}`, digest: digestOf(secret) };
}

/** The id and the secret of a well-formed key; undefined for anything else. */
export function parseAgentKey(key: string): { keyId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
}

/**
 * SHA-256 of the secret, hex. A fast hash is right here, unlike for passwords: the secret is 256
 * random bits, so there is no dictionary to try and a brute force of the digest is 2^256 hashes
 * whatever their speed; a slow hash (bcrypt, argon2) would only cost every request's verification.
 */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** In constant time: the comparison leaks nothing of how many leading bytes matched. */
export function secretMatches(secret: string, digest: string): boolean {
  const expected = Buffer.from(digest, 'hex');
  const actual = createHash('sha256').update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
