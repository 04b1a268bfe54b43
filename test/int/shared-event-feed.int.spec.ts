import { EVENT_CATALOG } from '@engram/domain';
import {
  EventCodec,
  PostgresEventStore,
  plainPayloads,
  type EventStore,
  type RecordedEvent,
} from '@engram/event-store';
import { PACE_STALE_MS, SharedEventFeed } from '@engram/projections';
import { appendMessage } from '../support/append-message';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/** The store and codec a feed sees, counting the reads and the payloads opened (decrypted). */
function counted(store: EventStore) {
  const calls = { readAll: 0, subscribeToAll: 0, opened: 0 };
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'readAll' && property !== 'subscribeToAll') return value;
      return (...args: unknown[]) => {
        calls[property] += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const codec = new EventCodec(EVENT_CATALOG, {
    seal: plainPayloads.seal,
    open: (record, definition) => {
      calls.opened += 1;
      return plainPayloads.open(record, definition);
    },
  });
  return { store: counting, codec, calls };
}

const positions = (events: readonly RecordedEvent[]) => events.map((e) => e.globalPosition);

describe('shared event feed', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let head = 0n;

  async function append(count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) head = (await appendMessage(store)).position;
  }

  async function readThrough(feed: SharedEventFeed, from: bigint, to: bigint, max?: number) {
    const seen: RecordedEvent[] = [];
    for (let position = from; position < to;) {
      const events = await feed.read(position, max);
      seen.push(...events);
      await Promise.all(events.map((event) => feed.decode(event)));
      position = events.at(-1)!.globalPosition;
    }
    return seen;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // A long poll: a consumer woken at the head was woken by the append's notification.
    store = new PostgresEventStore({ connectionString: database.appUrl, pollMs: 30_000 });
    await append(50);
  });

  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('serves consumers at nearby positions from shared reads, decoding each event once', async () => {
    const all = await store.readAll();
    const { store: counting, codec, calls } = counted(store);
    const feed = new SharedEventFeed(counting, codec, { pageSize: 10 });
    const [first, second, fromMiddle, batchesOfThree] = await Promise.all([
      readThrough(feed, 0n, head),
      readThrough(feed, 0n, head),
      readThrough(feed, all[4]!.globalPosition, head),
      readThrough(feed, all[1]!.globalPosition, head, 3),
    ]);
    expect(positions(first)).toEqual(positions(all));
    expect(positions(second)).toEqual(positions(all));
    expect(positions(fromMiddle)).toEqual(positions(all.slice(5)));
    expect(positions(batchesOfThree)).toEqual(positions(all.slice(2)));
    // Five pages, and at most one read of its own for each consumer that started elsewhere.
    expect(calls.readAll).toBeLessThanOrEqual(7);
    expect(calls.opened).toBe(50);
    feed.close();
  });

  it('lets a consumer far behind read its own pages, within a bounded buffer', async () => {
    const { store: counting, codec, calls } = counted(store);
    const feed = new SharedEventFeed(counting, codec, { pageSize: 10, maxBufferedEvents: 20 });
    const all = await readThrough(feed, 0n, head);
    expect(feed.buffered.events).toBeLessThanOrEqual(20);
    const readsBefore = calls.readAll;
    const behind = await readThrough(feed, 0n, head);
    expect(positions(behind)).toEqual(positions(all));
    expect(feed.buffered.events).toBeLessThanOrEqual(20);
    // What was no longer buffered was read again, and decoded once per read.
    const readAgain = calls.readAll - readsBefore;
    expect(readAgain).toBeGreaterThanOrEqual(3);
    expect(calls.opened).toBe(50 + 10 * readAgain);
    feed.close();
  });

  /** True if `promise` settles within `ms`. */
  const settlesWithin = (promise: Promise<unknown>, ms: number) =>
    Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  it('paces a named reader running ahead of a slower one, so that no page is read twice', async () => {
    const all = await store.readAll();
    const after = (count: number) => all[count - 1]!.globalPosition;
    const { store: counting, codec, calls } = counted(store);
    const feed = new SharedEventFeed(counting, codec, {
      pageSize: 10,
      maxBufferedEvents: 20,
      paceEvents: 10,
    });
    const slow = {};
    const fast = {};
    expect(positions(await feed.read(0n, 10, slow))).toEqual(positions(all.slice(0, 10)));
    // 10 events ahead of the slow reader: it reads on.
    expect(positions(await feed.read(after(10), 10, fast))).toEqual(positions(all.slice(10, 20)));
    // 20 ahead: it waits until the slow reader moves (well before a reader counts as idle).
    const ahead = feed.read(after(20), 10, fast);
    expect(await settlesWithin(ahead, 300)).toBe(false);
    expect(calls.readAll).toBe(2);
    await feed.read(after(10), 10, slow);
    expect(positions(await ahead)).toEqual(positions(all.slice(20, 30)));
    // The slow reader finds the pages the fast one read: each was read from the store once.
    expect(positions(await feed.read(after(20), 10, slow))).toEqual(positions(all.slice(20, 30)));
    expect(calls.readAll).toBe(3);
    // Unnamed reads are never paced.
    expect(positions(await feed.read(after(30), 10))).toEqual(positions(all.slice(30, 40)));
    feed.close();
  });

  it('stops holding readers back for one released, or idle for PACE_STALE_MS', async () => {
    const all = await store.readAll();
    const after = (count: number) => all[count - 1]!.globalPosition;
    const options = { pageSize: 10, maxBufferedEvents: 20, paceEvents: 10 };
    const released = new SharedEventFeed(store, new EventCodec(EVENT_CATALOG), options);
    const slow = {};
    const fast = {};
    await released.read(0n, 10, slow);
    await released.read(after(10), 10, fast);
    const waiting = released.read(after(20), 10, fast);
    expect(await settlesWithin(waiting, 300)).toBe(false);
    released.release(slow);
    expect(positions(await waiting)).toEqual(positions(all.slice(20, 30)));
    released.close();

    // A reader still waiting when the feed closes is told so.
    const closing = new SharedEventFeed(store, new EventCodec(EVENT_CATALOG), options);
    await closing.read(0n, 10, slow);
    await closing.read(after(10), 10, fast);
    const cut = closing.read(after(20), 10, fast);
    expect(await settlesWithin(cut, 100)).toBe(false);
    closing.close();
    await expect(cut).rejects.toThrow('closed');

    const idle = new SharedEventFeed(store, new EventCodec(EVENT_CATALOG), options);
    await idle.read(0n, 10, slow);
    await idle.read(after(10), 10, fast);
    const started = Date.now();
    expect(positions(await idle.read(after(20), 10, fast))).toEqual(positions(all.slice(20, 30)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(PACE_STALE_MS - 50);
    idle.close();
  });

  it('wakes every consumer at the head on the append notification, through one subscription', async () => {
    const { store: counting, codec, calls } = counted(store);
    const feed = new SharedEventFeed(counting, codec);
    const stop = new AbortController();
    const start = head;
    const following = [0, 1, 2].map(() => feed.follow(start, stop.signal));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const appended = Date.now();
    await append(1);
    const received = await Promise.all(following);
    expect(Date.now() - appended).toBeLessThan(5_000);
    for (const events of received) expect(positions(events)).toEqual([head]);
    expect(received[1]![0]).toBe(received[0]![0]);
    expect(calls.subscribeToAll).toBe(1);
    stop.abort();
    expect(await feed.follow(head, stop.signal)).toEqual([]);
    feed.close();
  });

  it('returns nothing to a follower whose signal aborts while it waits', async () => {
    const feed = new SharedEventFeed(store, new EventCodec(EVENT_CATALOG));
    const stop = new AbortController();
    const waiting = feed.follow(head, stop.signal);
    stop.abort();
    expect(await waiting).toEqual([]);
    feed.close();
    await expect(feed.read(0n)).rejects.toThrow('closed');
  });
});
