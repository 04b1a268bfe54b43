import { createHmac, hkdfSync } from 'node:crypto';
import type { OwnerDigest } from '@engram/domain';
import type { KeyStore } from './key-store';

/** HKDF `info` of the memory-id key: a key derived for one purpose serves no other. */
const MEMORY_ID_PURPOSE = 'engram/memory-id/v1';

/**
 * The owners' keyed digests that memory ids are made of (`OwnerDigest`): HMAC-SHA-256 under a key
 * derived (HKDF-SHA-256) from the owner's data key. Erasure destroys the data key, so the digests of an
 * erased owner can no longer be computed (`digestFor` throws `DataKeyDestroyedError`), and no one
 * without the data key (which never leaves the processes unwrapped) can compute them from a guess.
 */
export function memoryIdDigests(keys: Pick<KeyStore, 'keyForWriting'>) {
  // The HKDF once per data key the key store holds, not once per message (0.8 % of the worker's CPU
  // at 1,000 messages/s, BENCHMARKS round 24); it goes with the data key. Erasure is still checked
  // first: `keyForWriting` throws for a destroyed key.
  const derived = new WeakMap<Buffer, Buffer>();
  return {
    async digestFor(workspaceId: string, userId: string): Promise<OwnerDigest> {
      const dataKey = await keys.keyForWriting(workspaceId, userId);
      let key = derived.get(dataKey);
      if (key === undefined) {
        key = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), MEMORY_ID_PURPOSE, 32));
        derived.set(dataKey, key);
      }
      const ownerKey = key;
      return (text) => createHmac('sha256', ownerKey).update(text, 'utf8').digest('hex');
    },
  };
}
