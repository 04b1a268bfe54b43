import { EVENT_CATALOG } from '@engram/domain';
import {
  EventCodec,
  PostgresEventStore,
  plainPayloads,
  type EventStore,
  type RecordedEvent,
} from '@engram/event-store';
import { SharedEventFeed } from '@engram/projections';
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
