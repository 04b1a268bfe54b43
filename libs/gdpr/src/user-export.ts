import type { Writable } from 'node:stream';
import type { KeyOwner } from '@engram/crypto';
import {
  parseUnparsedEvent,
  type DecodedEvent,
  type EventCodec,
  type EventStore,
  type UnparsedEvent,
} from '@engram/event-store';

/** Events read (and held) at a time: memory stays flat whatever the size of the history. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Pages being rendered while the next one is read: three keep two render threads
 * (`EXPORT_RENDER_THREADS`) busy while this thread reads (BENCHMARKS.md, rounds 14 and 15).
 */
export const EXPORT_PAGES_IN_FLIGHT = 3;

/**
 * Renders a page of one owner's events, in order, as NDJSON bytes (a line each, decrypted). The
 * page's JSON is still text: read as text, a page crosses to a render thread as a few strings an
 * event instead of their objects (cheaper on both sides), and pg does not parse it on the way in.
 */
export type PageRenderer = (page: readonly UnparsedEvent[], owner: KeyOwner) => Promise<Buffer>;

/** One line of an export: one event of the user, decrypted, positions as JSON numbers. */
export type ExportLine = Readonly<{
  position: number;
  eventId: string;
  streamId: string;
  revision: number;
  type: string;
  /** The schema version of `data` as exported (older stored versions are upcast). */
  schemaVersion: number;
  occurredAt: string;
  recordedAt: string;
  metadata: Record<string, unknown>;
  data: Record<string, unknown>;
  /** True when the user's key was shredded: the personal fields are gone. */
  erased: boolean;
}>;

export class ExportAbortedError extends Error {
  override readonly name = 'ExportAbortedError';
}

export function toExportLine(decoded: DecodedEvent, schemaVersion: number): ExportLine {
  return {
    position: Number(decoded.globalPosition),
    eventId: decoded.eventId,
    streamId: decoded.streamId,
    revision: Number(decoded.streamRevision),
    type: decoded.event.type,
    schemaVersion,
    occurredAt: decoded.metadata.occurredAt,
    recordedAt: decoded.recordedAt.toISOString(),
    // The decoded objects themselves: a line is only stringified, and copies cost a few percent.
    metadata: decoded.metadata,
    data: decoded.event.data as Record<string, unknown>,
    erased: decoded.erased,
  };
}

/**
 * The NDJSON of a page, rendered in this thread. Encoded once: a string chunk is measured by HTTP (for
 * its chunk header), encoded by the socket and measured again, each a pass over half a megabyte of
 * mostly non-ASCII text.
 */
export async function renderExportPage(
  codec: EventCodec,
  page: readonly UnparsedEvent[],
): Promise<Buffer> {
  const decoded = await codec.decodeAll(page.map(parseUnparsedEvent));
  const lines: string[] = [];
  for (const event of decoded) {
    const version = codec.definitionOf(event.event.type).version;
    lines.push(JSON.stringify(toExportLine(event, version)), '\n');
  }
  return Buffer.from(lines.join(''), 'utf8');
}

/**
 * Writes `chunk` and, when the stream's buffer is full (`write` returned false), waits for 'drain'
 * before returning, so a slow reader slows the export down instead of filling memory. Rejects when
 * the stream closes or fails first (the client went away).
 */
export async function writeWithBackpressure(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.destroyed || out.writableEnded) {
    throw new ExportAbortedError('the output was closed before the export ended');
  }
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const cleanup = () => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onError);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(new ExportAbortedError('the output was closed before the export ended'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    out.once('drain', onDrain);
    out.once('close', onClose);
    out.once('error', onError);
  });
}

export type ExportOptions = Readonly<{
  /**
   * Export the events up to this global position (inclusive): the audit record of this export, one
   * of the user's own events, which every page's read is consistent with (read-your-writes).
   */
  through: bigint;
  pageSize?: number;
  /** Called after each page is written, with the number of events written so far. */
  onProgress?: (written: number) => void;
}>;

export type ExportResult = Readonly<{ events: number; bytes: number }>;

/**
 * Streams one user's events as NDJSON (one line per event, global order, decoded by the codec so
 * personal fields come out decrypted) to `out`. Reads `readUserEvents` page by page; each page is
 * handed to `render` (by default `renderExportPage`, in this thread; the API gives its render
 * thread) as soon as it is read, the next page read meanwhile, at most `EXPORT_PAGES_IN_FLIGHT` pages
 * rendering at once, written in order. The cost is bounded by the user's own events (an index range
 * scan), not by the size of the store; memory by a few pages.
 */
export async function writeUserExport(
  deps: Readonly<{ store: EventStore; codec: EventCodec; render?: PageRenderer }>,
  workspaceId: string,
  userId: string,
  options: ExportOptions,
  out: Writable,
): Promise<ExportResult> {
  const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
  const render: PageRenderer = deps.render ?? ((page) => renderExportPage(deps.codec, page));
  const owner = { workspaceId, userId };
  const rendering: { count: number; chunk: Promise<Buffer> }[] = [];
  let events = 0;
  let bytes = 0;
  const writeOldest = async () => {
    const { count, chunk } = rendering.shift()!;
    const rendered = await chunk;
    await writeWithBackpressure(out, rendered);
    events += count;
    bytes += rendered.length;
    options.onProgress?.(events);
  };
  let after: bigint | 'start' = 'start';
  for (;;) {
    const read = await deps.store.readUserEventsUnparsed(workspaceId, userId, {
      after,
      maxCount: pageSize,
      consistentThrough: options.through,
    });
    const page = read.filter((event) => event.globalPosition <= options.through);
    if (page.length > 0) {
      const chunk = render(page, owner);
      // A failed render is seen when its turn to be written comes; until then it is not unhandled.
      chunk.catch(() => undefined);
      rendering.push({ count: page.length, chunk });
      if (rendering.length >= EXPORT_PAGES_IN_FLIGHT) await writeOldest();
    }
    const last = page.at(-1);
    if (page.length < pageSize || !last || last.globalPosition >= options.through) break;
    after = last.globalPosition;
  }
  while (rendering.length > 0) await writeOldest();
  return { events, bytes };
}
