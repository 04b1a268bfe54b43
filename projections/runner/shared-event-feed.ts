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
}>;

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
  }

  get buffered(): Readonly<{ events: number; pages: number }> {
    return this.pages.size;
  }

  /** Up to `max` events after `position`; none when `position` is the head of the log. */
  async read(position: bigint, max = this.pageSize): Promise<readonly RecordedEvent[]> {
    this.throwIfClosed();
    const buffered = this.pages.eventsAfter(position, max);
    if (buffered) return buffered;
    const read = await this.readPage(position);
    return this.pages.eventsAfter(position, max) ?? read.slice(0, max);
  }

  /** Like `read`, but at the head of the log waits for appends; none only once `signal` aborts. */
  async follow(
    position: bigint,
    signal: AbortSignal,
    max = this.pageSize,
  ): Promise<readonly RecordedEvent[]> {
    while (!signal.aborted) {
      const events =
        this.tail?.position === position
          ? (this.pages.eventsAfter(position, max) ?? [])
          : await this.read(position, max);
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
  }

  private readPage(position: bigint): Promise<RecordedEvent[]> {
    let read = this.reads.get(position);
    if (!read) {
      read = this.store
        .readAll({ after: position, maxCount: this.pageSize })
        .then((events) => {
          this.pages.add(position, events);
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
