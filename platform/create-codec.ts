import { DataKeyCipher, type KeyStore } from '@engram/crypto';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, createResilientPool } from '@engram/event-store';
import type { Runtime } from './prepare-runtime';

/** The codec of a process, with the key store behind its cipher and what closes its connections. */
export type CodecResources = Readonly<{
  codec: EventCodec;
  /** The same keys (and cache) the codec uses: `destroyKey` here takes effect in this process at once. */
  keys: KeyStore;
  /** The keys of some owners, from the same cache (for the export's render thread). */
  keysOf: DataKeyCipher['keysOf'];
  close: () => Promise<void>;
}>;

/** Nest token of the `CodecResources` (EventCodec and KeyStore are provided from it). */
export const CODEC_RESOURCES = Symbol('CODEC_RESOURCES');

/**
 * The event codec with personal data encrypted at rest (`DataKeyCipher`): data keys in the database of
 * `connectionString`, wrapped by the runtime's master key. The API role may create and destroy keys;
 * the projector role can only read them, which is all decoding needs.
 */
export function createCodec(
  runtime: Runtime,
  connectionString: string,
  name = 'engram',
): CodecResources {
  const pool = createResilientPool({
    connectionString,
    application_name: `${name}-keys`,
    max: 4,
    idleTimeoutMillis: 10_000,
  });
  const cipher = new DataKeyCipher(pool, runtime.masterKey);
  return {
    codec: new EventCodec(EVENT_CATALOG, cipher),
    keys: cipher.keys,
    keysOf: (owners) => cipher.keysOf(owners),
    close: () => pool.end(),
  };
}
