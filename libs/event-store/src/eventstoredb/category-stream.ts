import { BACKWARDS, END, ErrorType, FORWARDS } from '@eventstore/db-client';
import type { EventStoreDBClient, ResolvedEvent, StreamingRead } from '@eventstore/db-client';
import { isEsdbError, toStoreError } from './client-errors';

/**
 * Reading a `$ce-…` category stream, whose links the server's `$by_category` projection writes in
 * `$all` order, after the events they point to: a link's revision orders it, the event behind it
 * (absent once deleted) gives its `$all` position.
 */

const LINK_TYPE = '$>';

/** Links looked at from the end when the newest ones point to deleted events. */
const TAIL_WINDOW = 20;

export type LinkCursor = Readonly<{ revision: bigint; position: bigint | undefined }>;

/** The links of `stream` from `fromRevision` on, events resolved; none while the stream does not exist. */
export async function readLinks(
  client: EventStoreDBClient,
  stream: string,
  fromRevision: bigint,
  maxCount: number,
): Promise<ResolvedEvent[]> {
  try {
    return await collect(
      client.readStream(stream, {
        direction: FORWARDS,
        fromRevision,
        maxCount,
        resolveLinkTos: true,
      }),
    );
  } catch (error) {
    if (isEsdbError(error, ErrorType.STREAM_NOT_FOUND)) return [];
    throw toStoreError(error);
  }
}

/**
 * The `$all` position of the newest event the category stream links to (looking past links to
 * deleted events), undefined when it links to none yet. Everything of the category up to it is
 * linked, since the projection links in `$all` order.
 */
export async function lastLinkedPosition(
  client: EventStoreDBClient,
  stream: string,
): Promise<bigint | undefined> {
  let tail: ResolvedEvent[];
  try {
    tail = await collect(
      client.readStream(stream, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: TAIL_WINDOW,
        resolveLinkTos: true,
      }),
    );
  } catch (error) {
    if (isEsdbError(error, ErrorType.STREAM_NOT_FOUND)) return undefined;
    throw toStoreError(error);
  }
  for (const resolved of tail) {
    const position = targetPosition(resolved);
    if (position !== undefined) return position;
  }
  return undefined;
}

export type WaitBounds = Readonly<{ timeoutMs: number; firstDelayMs: number; maxDelayMs: number }>;

/**
 * Waits until the category stream links an event at or past `position`; returns what it reached
 * (`reached: true`), or, once `timeoutMs` has passed, the last position seen (`reached: false`).
 */
export async function waitForLink(
  client: EventStoreDBClient,
  stream: string,
  position: bigint,
  bounds: WaitBounds,
  now: () => number = Date.now,
): Promise<{ reached: boolean; last: bigint | undefined; waitedMs: number }> {
  const start = now();
  let delay = bounds.firstDelayMs;
  for (;;) {
    const last = await lastLinkedPosition(client, stream);
    const waitedMs = now() - start;
    if (last !== undefined && last >= position) return { reached: true, last, waitedMs };
    if (waitedMs >= bounds.timeoutMs) return { reached: false, last, waitedMs };
    await sleep(Math.min(delay, Math.max(1, bounds.timeoutMs - waitedMs)));
    delay = Math.min(delay * 2, bounds.maxDelayMs);
  }
}

/**
 * The first revision of the category stream whose link may point past `after`: a binary search over
 * the link revisions, one single-link read per step, so that a page starts where the previous one
 * ended instead of reading the stream again from its start. A link whose event was deleted is
 * ordered by its own position, later than its event's: the search then starts earlier, never later.
 */
export async function firstRevisionAfter(
  client: EventStoreDBClient,
  stream: string,
  after: bigint,
): Promise<bigint> {
  const last = await lastRevision(client, stream);
  if (last === undefined) return 0n;
  let low = 0n;
  let high = last + 1n; // invariant: every revision below `low` is at or before `after`
  while (low < high) {
    const middle = (low + high) / 2n;
    const [resolved] = await readLinks(client, stream, middle, 1);
    if (resolved === undefined) {
      high = middle;
      continue;
    }
    if (atOrBefore(resolved, after)) low = middle + 1n;
    else high = middle;
  }
  return low;
}

/** Whether a link certainly points to an event at or before `after`. */
function atOrBefore(resolved: ResolvedEvent, after: bigint): boolean {
  const target = targetPosition(resolved);
  if (target !== undefined) return target <= after;
  // The event is gone: the link was written after it, so a link at or before `after` tells.
  const link = (resolved.link ?? resolved.event)?.position?.commit;
  return link !== undefined && link <= after;
}

/**
 * The position of the event a link points to; undefined when it is gone (the server then answers
 * with the link record alone, as `link` or as `event` depending on the version).
 */
export function targetPosition(resolved: ResolvedEvent): bigint | undefined {
  const event = resolved.event;
  return event === undefined || event.type === LINK_TYPE ? undefined : event.position?.commit;
}

async function lastRevision(
  client: EventStoreDBClient,
  stream: string,
): Promise<bigint | undefined> {
  try {
    const [resolved] = await collect(
      client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
    );
    return (resolved?.link ?? resolved?.event)?.revision;
  } catch (error) {
    if (isEsdbError(error, ErrorType.STREAM_NOT_FOUND)) return undefined;
    throw toStoreError(error);
  }
}

export async function collect<T>(read: StreamingRead<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
