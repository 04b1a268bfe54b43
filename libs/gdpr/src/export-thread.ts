import { parentPort } from 'node:worker_threads';
import { GivenKeyDidNotOpenError, GivenKeysCipher, type OwnerKeys } from '@engram/crypto';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, type UnparsedEvent } from '@engram/event-store';
import { renderExportPage } from './user-export';

/** A page to render, with the keys of its owner as the process looked them up. */
export type RenderRequest = Readonly<{
  id: number;
  page: readonly UnparsedEvent[];
  /** As `OwnerKeys`, each key a Uint8Array: a Buffer loses its class crossing threads. */
  keys: ReadonlyArray<readonly [string, Uint8Array | undefined]>;
}>;

/** The page's NDJSON (moved, not copied), or why it was not rendered. */
export type RenderReply = Readonly<
  { id: number; ndjson: ArrayBuffer } | { id: number; error: string; keyDidNotOpen: boolean }
>;

/*
 * The export's render thread (`ExportRenderThread`): decrypts and renders the pages its process
 * reads, with the catalog and the keys it is given; no database, no state between pages.
 */
parentPort?.on('message', ({ id, page, keys }: RenderRequest) => {
  const given: OwnerKeys = keys.map(([owner, key]) => [owner, key && asBuffer(key)]);
  renderExportPage(new EventCodec(EVENT_CATALOG, new GivenKeysCipher(given)), page).then(
    (rendered) => {
      const ndjson = ownArrayBuffer(rendered);
      parentPort!.postMessage({ id, ndjson } satisfies RenderReply, [ndjson]);
    },
    (error: unknown) => {
      parentPort!.postMessage({
        id,
        error: String(error),
        keyDidNotOpen: error instanceof GivenKeyDidNotOpenError,
      } satisfies RenderReply);
    },
  );
});

/** A key arrives as a Uint8Array (a Buffer loses its class crossing threads). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes in an ArrayBuffer of their own, which can be moved to the other thread. */
function ownArrayBuffer(bytes: Buffer): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (
    whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  ) as ArrayBuffer;
}
