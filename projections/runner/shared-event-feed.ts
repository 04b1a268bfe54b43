import {
  batched,
  type DecodedEvent,
  type EventCodec,
  type EventStore,
  type RecordedEvent,
} from '@engram/event-store';
import { EventPages } from './event-pages';

export type SharedEventFeedOptions = Readonly<{
  /** Events per read of the store. */
  pageSize?: number;
  /** Bounds the events kept for consumers that follow behind the one that read them. */
  maxBufferedEvents?: number;
  maxBufferedPages?: number;
  /** How long a live read waits for more appends once one arrived. */
  maxWaitMs?: number;
  /** Told each batch the feed reads from the store, before a reader gets it. */
  onRead?: (events: readonly RecordedEvent[]) => void;
  /**
   * How many events a reader that names itself may run ahead of the slowest such reader whose
   * position is still buffered, while the log is read in full pages (catching up); default half
   * the buffer.
   */
  paceEvents?: number;
}>;

/**
 * A reader's position is counted for pacing this long after its last read: one busy elsewhere (a
 * slow batch, a backoff) stops holding the others back.
 */
export const PACE_STALE_MS = 1000;

type Tail = {
  position: bigint;
  batches: AsyncIterator<RecordedEvent[]>;
  stop: AbortController;
  pulling?: Promise<void>;
};

/**
 * The global log as read by all the projection runners of one process: runners at nearby positions
 * share each read of the store (a page of events kept in a bounded buffer) and each decode (memoized
 * per event, so decryption runs once), where every runner used to read and decode every event itself.
 * A runner far behind the others (a projection just reset) reads its own pages, which the runners
 * behind it share in turn. At the head of the log one subscription, woken by the store's append
 * notifications, reads new events for every runner waiting there.
 */
export class SharedEventFeed {
  private readonly pages: EventPages;
  private readonly pageSize: number;
  private readonly reads = new Map<bigint, Promise<RecordedEvent[]>>();
  private readonly decoded = new WeakMap<RecordedEvent, Promise<DecodedEvent>>();
  private tail: Tail | undefined;
  private closed = false;
  private readonly paceEvents: number;
  /** Where each reader that named itself last read, and when. */
  private readonly readers = new Map<object, { position: bigint; at: number }>();
  /** Settles at the next read of a named reader (or after PACE_STALE_MS): what paced readers await. */
  private moved: { promise: Promise<void>; wake: () => void } | undefined;
  /** The last read of the store returned a full page: the readers are catching up, not at the head. */
  private catchingUp = false;

  constructor(
    private readonly store: EventStore,
    private readonly codec: EventCodec,
    private readonly options: SharedEventFeedOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 2000;
    this.pages = new EventPages({
      maxEvents: options.maxBufferedEvents ?? 10_000,
      maxPages: options.maxBufferedPages ?? 256,
    });
    this.paceEvents = options.paceEvents ?? Math.floor((options.maxBufferedEvents ?? 10_000) / 2);
  }

  get buffered(): Readonly<{ events: number; pages: number }> {
    return this.pages.size;
  }

  /** The latest position read from the store (undefined before any event): what consumers apply. */
  get latestRead(): bigint | undefined {
    return this.pages.latest;
  }

  /**
   * Up to `max` events after `position`; none when `position` is the head of the log.
   *
   * A `reader` (any object, the same at each of its reads) is paced: while the log is read in full
   * pages, it waits before reading the store further than `paceEvents` ahead of the slowest other
   * reader whose position is still buffered. Without it, the readers with little to apply (a
   * projection of rare events skips whole batches) ran ahead, their pages pushed out of the bounded
   * buffer the pages the others had not reached, and those read and decoded them again: a rebuild
   * read its log twice at 100k events (round 13 in BENCHMARKS.md).
   */
  async read(
    position: bigint,
    max = this.pageSize,
    reader?: object,
  ): Promise<readonly RecordedEvent[]> {
    this.throwIfClosed();
    if (reader) this.mark(reader, position);
    const buffered = this.pages.eventsAfter(position, max);
    if (buffered) return buffered;
    if (reader && (await this.waitForSlowerReaders(reader, position))) {
      this.throwIfClosed();
      const meanwhile = this.pages.eventsAfter(position, max);
      if (meanwhile) return meanwhile;
    }
    const read = await this.readPage(position);
    return this.pages.eventsAfter(position, max) ?? read.slice(0, max);
  }

  /** The reader reads no more: it holds nobody back. */
  release(reader: object): void {
    this.readers.delete(reader);
    this.wakePaced();
  }

  /** Like `read`, but at the head of the log waits for appends; none only once `signal` aborts. */
  async follow(
    position: bigint,
    signal: AbortSignal,
    max = this.pageSize,
    reader?: object,
  ): Promise<readonly RecordedEvent[]> {
    while (!signal.aborted) {
      const events =
        this.tail?.position === position
          ? (this.pages.eventsAfter(position, max) ?? [])
          : await this.read(position, max, reader);
      if (events.length > 0) return events;
      await untilAborted(this.pullTail(position), signal);
    }
    return [];
  }

  /**
   * Events after `position` are already here (buffered): a consumer that deferred work can go on
   * without waiting for the store. False at the head of the log, or before a page is read.
   */
  hasEventsAfter(position: bigint): boolean {
    return (this.pages.eventsAfter(position, 1)?.length ?? 0) > 0;
  }

  /** The event decoded once for all consumers (the same objects reach every nearby consumer). */
  decode(event: RecordedEvent): Promise<DecodedEvent> {
    let decoding = this.decoded.get(event);
    if (!decoding) {
      decoding = this.codec.decode(event);
      // A failure (a data key that could not be fetched) is retried by the next decode.
      decoding.catch(() => this.decoded.delete(event));
      this.decoded.set(event, decoding);
    }
    return decoding;
  }

  close(): void {
    this.closed = true;
    this.stopTail();
    this.wakePaced();
  }

  private mark(reader: object, position: bigint): void {
    this.readers.set(reader, { position, at: Date.now() });
    this.wakePaced();
  }

  private wakePaced(): void {
    this.moved?.wake();
    this.moved = undefined;
  }

  /**
   * Waits while another reader, read recently, is more than `paceEvents` buffered events behind
   * `position` (each of its reads wakes the check; a stale one is ignored). True if it waited.
   */
  private async waitForSlowerReaders(reader: object, position: bigint): Promise<boolean> {
    let waited = false;
    while (
      this.catchingUp &&
      !this.closed &&
      this.eventsAheadOfSlowest(reader, position) > this.paceEvents
    ) {
      this.moved ??= nextMove();
      await this.moved.promise;
      waited = true;
    }
    return waited;
  }

  /** How many buffered events lie between the slowest recent other reader and `position`. */
  private eventsAheadOfSlowest(reader: object, position: bigint): number {
    const now = Date.now();
    let ahead = 0;
    for (const [other, mark] of this.readers) {
      if (other === reader || mark.position >= position || now - mark.at > PACE_STALE_MS) continue;
      ahead = Math.max(ahead, this.pages.countBetween(mark.position, position) ?? 0);
    }
    return ahead;
  }

  private readPage(position: bigint): Promise<RecordedEvent[]> {
    let read = this.reads.get(position);
    if (!read) {
      read = this.store
        .readAll({ after: position, maxCount: this.pageSize })
        .then((events) => {
          this.options.onRead?.(events);
          this.pages.add(position, events);
          this.catchingUp = events.length >= this.pageSize;
          return events;
        })
        .finally(() => this.reads.delete(position));
      this.reads.set(position, read);
    }
    return read;
  }

  /** The next appends after `position`, read by the one subscription that follows the head. */
  private pullTail(position: bigint): Promise<void> {
    this.throwIfClosed();
    if (this.tail?.pulling) return this.tail.pulling;
    if (this.tail?.position !== position) this.startTail(position);
    const tail = this.tail!;
    tail.pulling = tail.batches
      .next()
      .then((next) => {
        if (next.done) throw new Error('the subscription to the event store ended');
        this.options.onRead?.(next.value);
        this.pages.add(tail.position, next.value);
        tail.position = next.value.at(-1)?.globalPosition ?? tail.position;
      })
      .catch((error: unknown) => {
        if (this.tail === tail) this.stopTail();
        if (!this.closed && !tail.stop.signal.aborted) throw error;
      })
      .finally(() => {
        tail.pulling = undefined;
      });
    return tail.pulling;
  }

  private startTail(position: bigint): void {
    this.stopTail();
    const stop = new AbortController();
    const events = this.store.subscribeToAll({ after: position, signal: stop.signal });
    const batches = batched(events, this.pageSize, this.options.maxWaitMs ?? 2);
    this.tail = { position, batches: batches[Symbol.asyncIterator](), stop };
  }

  private stopTail(): void {
    const tail = this.tail;
    this.tail = undefined;
    tail?.stop.abort();
    void tail?.batches.return?.(undefined).catch(() => undefined);
  }

  private throwIfClosed(): void {
    if (this.closed) throw new Error('the event feed is closed');
  }
}

/** A promise its `wake` settles, or a timer PACE_STALE_MS later (a stale reader is then ignored). */
function nextMove(): { promise: Promise<void>; wake: () => void } {
  let wake = () => {};
  const promise = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, PACE_STALE_MS);
    timer.unref();
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { promise, wake };
}

/** Settles when `promise` does, or resolves when `signal` aborts, whichever comes first. */
async function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let abort = () => {};
  const aborted = new Promise<void>((resolve) => {
    abort = resolve;
    signal.addEventListener('abort', abort, { once: true });
  });
  try {
    await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', abort);
  }
}
