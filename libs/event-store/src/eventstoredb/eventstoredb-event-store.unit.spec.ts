import {
  FakeEventStoreDbClient,
  type TransportFailure,
} from '../../../../test/support/fake-eventstoredb-client';
import {
  AppendTooLargeError,
  EventStoreAccessDeniedError,
  EventStoreMisconfiguredError,
  EventStoreUnavailableError,
  StreamDeletedError,
  StreamNotFoundError,
  UserEventsBehindError,
  WrongExpectedVersionError,
} from '../errors';
import type { EventRecord, RecordedEvent } from '../event-store.port';
import type { ForeignEvent } from './engram-events';
import { EventStoreDbEventStore, type EventStoreDbOptions } from './eventstoredb-event-store';

/**
 * The adapter driven against a fake of the client's surface that models the server behaviours it
 * depends on (test/support/fake-eventstoredb-client.ts): lagging or stopped category links, paging
 * from a revision, the idempotency window, tombstones, each client error. No server is involved.
 */

const FAST_WAIT = { timeoutMs: 300, firstDelayMs: 5, maxDelayMs: 20 };

function setUp(options: EventStoreDbOptions = {}) {
  const client = new FakeEventStoreDbClient();
  const foreign: ForeignEvent[] = [];
  const store = new EventStoreDbEventStore(client.asClient(), {
    categoryWait: FAST_WAIT,
    onForeignEvent: (event) => foreign.push(event),
    ...options,
  });
  return { client, store, foreign };
}

let ids = 0;
function record(
  type = 'MemoryStored',
  data: Record<string, unknown> = { text: 'hello' },
): EventRecord {
  ids += 1;
  return {
    eventId: `00000000-0000-4000-8000-${ids.toString().padStart(12, '0')}`,
    type,
    schemaVersion: 3,
    data,
    metadata: { workspaceId: 'ws', userId: 'user-1' },
  };
}

const positions = (events: readonly RecordedEvent[]) => events.map((e) => e.globalPosition);

describe('EventStoreDbEventStore (fake client)', () => {
  describe('appendToStream', () => {
    it('writes JSON events to the physical stream with schemaVersion in the metadata', async () => {
      const { client, store } = setUp();
      const event = record();
      const result = await store.appendToStream('ws/user-1/memory/m1', [event], {
        expectedRevision: 'no_stream',
      });

      const [stored] = await store.readStream('ws/user-1/memory/m1');
      expect(result).toEqual({ nextExpectedRevision: 0n, position: stored!.globalPosition });
      expect(client.log[0]).toMatchObject({
        streamId: 'u/ws/user~1-memory/m1',
        id: event.eventId,
        metadata: { workspaceId: 'ws', userId: 'user-1', schemaVersion: 3 },
      });
      expect(stored).toMatchObject({ schemaVersion: 3, metadata: { userId: 'user-1' } });
      expect(stored!.metadata).not.toHaveProperty('schemaVersion');
    });

    it('maps a wrong expected version with the actual revision, and a tombstoned stream', async () => {
      const { store } = setUp();
      await store.appendToStream('s', [record(), record()], { expectedRevision: 'no_stream' });
      const stale = store.appendToStream('s', [record()], { expectedRevision: 0n });
      await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(stale).rejects.toMatchObject({ streamId: 's', expected: 0n, actual: 1n });

      await store.deleteStream('s');
      await expect(
        store.appendToStream('s', [record()], { expectedRevision: 'any' }),
      ).rejects.toEqual(new StreamDeletedError('s'));
    });

    it('answers a retry at the same exact revision from the stored events, even after a restart', async () => {
      const { client, store } = setUp();
      const events = [record(), record()];
      const first = await store.appendToStream('s', events, { expectedRevision: 'no_stream' });
      client.restart();

      const retry = await store.appendToStream('s', events, { expectedRevision: 'no_stream' });
      expect(retry).toEqual(first);
      expect(await store.readStream('s')).toHaveLength(2);
    });

    it('outside exact revisions, recognises a retry only within the server window (the documented limit)', async () => {
      const { client, store } = setUp();
      const event = record();
      await store.appendToStream('log', [event], { expectedRevision: 'any' });
      await store.appendToStream('log', [event], { expectedRevision: 'any' });
      expect(await store.readStream('log')).toHaveLength(1);

      client.restart();
      await store.appendToStream('log', [event], { expectedRevision: 'any' });
      expect(await store.readStream('log')).toHaveLength(2);
    });

    it('refuses an append over the server limit with AppendTooLargeError, naming the limit', async () => {
      const { store } = setUp();
      const big = record('MessageRecorded', { text: 'x'.repeat(1024 * 1024) });

      const append = store.appendToStream('ws/user-1/session/s1', [big], {
        expectedRevision: 'any',
      });
      await expect(append).rejects.toBeInstanceOf(AppendTooLargeError);
      await expect(append).rejects.toMatchObject({
        streamId: 'ws/user-1/session/s1',
        maxBytes: 1024 * 1024,
      });
    });
  });

  describe('client errors become the port errors', () => {
    const cases: Array<[TransportFailure, new (...args: never[]) => Error, string | undefined]> = [
      ['deadline', EventStoreUnavailableError, 'deadline_exceeded'],
      ['unavailable', EventStoreUnavailableError, 'unavailable'],
      ['not-leader', EventStoreUnavailableError, 'not_leader'],
      ['access-denied', EventStoreAccessDeniedError, undefined],
    ];

    it.each(cases)(
      '%s on append, stream read, $all read and category read',
      async (kind, type, reason) => {
        const { client, store } = setUp();
        await store.appendToStream('ws/u/memory/m', [record()], { expectedRevision: 'any' });
        const expected = reason === undefined ? {} : { reason };

        client.failNext('appendToStream', kind);
        const append = store.appendToStream('s', [record()], { expectedRevision: 'any' });
        await expect(append).rejects.toBeInstanceOf(type);
        await expect(append).rejects.toMatchObject(expected);

        client.failNext('readStream', kind);
        await expect(store.readStream('s')).rejects.toBeInstanceOf(type);
        client.failNext('readAll', kind);
        await expect(store.readAll()).rejects.toBeInstanceOf(type);
        client.failNext('readStream', kind);
        await expect(store.readUserEvents('ws', 'u')).rejects.toBeInstanceOf(type);
        client.failNext('tombstoneStream', kind);
        await expect(store.deleteStream('s')).rejects.toBeInstanceOf(type);
      },
    );

    it.each(cases)('%s ends a subscription with the port error', async (kind, type) => {
      const { client, store } = setUp();
      client.failNext('subscribeToAll', kind);
      const consume = async () => {
        for await (const event of store.subscribeToAll()) void event;
      };
      await expect(consume()).rejects.toBeInstanceOf(type);
    });
  });

  describe('readStream', () => {
    it('reads back under the logical name; a missing or tombstoned stream is not found', async () => {
      const { store } = setUp();
      await store.appendToStream('ws/~/settings/main', [record('T', { a: 1 })], {
        expectedRevision: 'no_stream',
      });
      const [event] = await store.readStream('ws/~/settings/main');
      expect(event).toMatchObject({ streamId: 'ws/~/settings/main', type: 'T', data: { a: 1 } });

      await expect(store.readStream('missing')).rejects.toEqual(new StreamNotFoundError('missing'));
      await store.deleteStream('ws/~/settings/main');
      await expect(store.readStream('ws/~/settings/main')).rejects.toBeInstanceOf(
        StreamNotFoundError,
      );
    });

    it('pages from a revision', async () => {
      const { store } = setUp();
      await store.appendToStream('s', [record(), record(), record()], { expectedRevision: 'any' });
      const page = await store.readStream('s', { fromRevision: 1n, maxCount: 1 });
      expect(page.map((e) => e.streamRevision)).toEqual([1n]);
    });
  });

  describe('readAll', () => {
    async function storeWithLog(count: number) {
      const set = setUp();
      for (let i = 0; i < count; i += 1) {
        await set.store.appendToStream(
          `ws/user/memory/m${i % 2}`,
          [record(i % 4 === 0 ? 'MemoryStored' : 'MemoryEdited')],
          {
            expectedRevision: 'any',
          },
        );
      }
      set.client.writeRaw('orders-1', 'OrderPlaced', { isJson: true, data: { total: 1 } });
      return set;
    }

    it('skips system events (the category links) and streams Engram does not name, in order, across pages', async () => {
      const { client, store } = await storeWithLog(1200);
      const events = await store.readAll();

      expect(events).toHaveLength(1200);
      expect(events.every((e) => e.streamId.startsWith('ws/user/memory/'))).toBe(true);
      const sorted = [...positions(events)].sort((a, b) => (a < b ? -1 : 1));
      expect(positions(events)).toEqual(sorted);
      // 1200 events + 1200 links + 1 foreign: three pages of 1,000.
      expect(client.reads.filter((r) => r.method === 'readAll')).toHaveLength(3);
    });

    it('fetches no more than asked: maxCount 1 reads one event', async () => {
      const { client, store } = await storeWithLog(10);
      const [first] = await store.readAll({ maxCount: 1 });
      expect(client.reads.at(-1)).toEqual({ method: 'readAll', target: '$all', returned: 1 });

      const [second] = await store.readAll({ after: first!.globalPosition, maxCount: 1 });
      // From the cursor, inclusive: the cursor and the one after it (a link between them is skipped).
      expect(client.reads.at(-1)!.returned).toBeLessThanOrEqual(2);
      expect(second!.globalPosition).toBeGreaterThan(first!.globalPosition);
    });

    it('reads strictly after `after` and filters by type and logical stream prefix', async () => {
      const { store } = await storeWithLog(12);
      const all = await store.readAll();
      const later = await store.readAll({ after: all[3]!.globalPosition, maxCount: 2 });
      expect(positions(later)).toEqual(positions(all.slice(4, 6)));

      const stored = await store.readAll({ filter: { eventTypePrefixes: ['MemoryS'] } });
      expect(stored).toHaveLength(3);
      const m1 = await store.readAll({ filter: { streamPrefixes: ['ws/user/memory/m1'] } });
      expect(m1.map((e) => e.streamId)).toEqual(Array(6).fill('ws/user/memory/m1'));
      expect(await store.readAll({ filter: { streamPrefixes: ['ws/other/'] } })).toEqual([]);
    });

    it("skips and reports an event whose stream looks like Engram's but whose body is not", async () => {
      const { client, store, foreign } = await storeWithLog(2);
      client.writeRaw('u/ws/user-memory/m9', 'Binary', {
        isJson: false,
        data: new Uint8Array([1]),
      });
      client.writeRaw('u/ws/user-memory/m9', 'NoVersion', {
        isJson: true,
        data: { a: 1 },
        metadata: {},
      });
      await store.appendToStream('ws/user/memory/m1', [record()], { expectedRevision: 'any' });

      const events = await store.readAll();
      expect(events).toHaveLength(3);
      expect(foreign.map((f) => [f.streamName, f.reason])).toEqual([
        ['u/ws/user-memory/m9', 'data is not a JSON object'],
        ['u/ws/user-memory/m9', 'no schemaVersion in its metadata'],
      ]);
    });
  });

  describe('readUserEvents', () => {
    it("reads the user's category, resolving links and skipping links to deleted events", async () => {
      const { store } = setUp();
      await store.appendToStream('ws-1/user-1/memory/a', [record()], { expectedRevision: 'any' });
      await store.appendToStream('ws-1/user-1/memory/b', [record()], { expectedRevision: 'any' });
      await store.appendToStream('ws-1/user-1/memory/c', [record()], { expectedRevision: 'any' });
      await store.appendToStream('ws-1/user-2/memory/a', [record()], { expectedRevision: 'any' });
      await store.deleteStream('ws-1/user-1/memory/b');

      const events = await store.readUserEvents('ws-1', 'user-1');
      expect(events.map((e) => e.streamId)).toEqual([
        'ws-1/user-1/memory/a',
        'ws-1/user-1/memory/c',
      ]);
      const later = await store.readUserEvents('ws-1', 'user-1', {
        after: events[0]!.globalPosition,
      });
      expect(later.map((e) => e.streamId)).toEqual(['ws-1/user-1/memory/c']);
    });

    it('waits for the lagging category stream to reach `consistentThrough` before answering', async () => {
      const { client, store } = setUp();
      client.category.immediate = false;
      await store.appendToStream('ws/u/memory/a', [record()], { expectedRevision: 'any' });
      const { position } = await store.appendToStream('ws/u/audit/2026-12-01', [record()], {
        expectedRevision: 'any',
      });

      // Without the option the answer is what is linked so far: nothing yet.
      expect(await store.readUserEvents('ws', 'u')).toEqual([]);
      setTimeout(() => client.catchUp(), 40);
      const events = await store.readUserEvents('ws', 'u', { consistentThrough: position });
      expect(events.map((e) => e.streamId)).toEqual(['ws/u/memory/a', 'ws/u/audit/2026-12-01']);
    });

    it('throws UserEventsBehindError when the category stream does not get there in time', async () => {
      const { client, store } = setUp();
      await store.appendToStream('ws/u/memory/a', [record()], { expectedRevision: 'any' });
      client.category.immediate = false;
      const { position } = await store.appendToStream('ws/u/memory/b', [record()], {
        expectedRevision: 'any',
      });

      const read = store.readUserEvents('ws', 'u', { consistentThrough: position });
      await expect(read).rejects.toBeInstanceOf(UserEventsBehindError);
      await expect(read).rejects.toMatchObject({ position, reached: client.log[0]!.position });
    });

    it('with projections stopped, an answer that should not be empty is an error, not []', async () => {
      const { client, store } = setUp();
      client.category.status = 'Stopped';
      const { position } = await store.appendToStream('ws/u/memory/a', [record()], {
        expectedRevision: 'any',
      });
      await expect(
        store.readUserEvents('ws', 'u', { consistentThrough: position }),
      ).rejects.toBeInstanceOf(UserEventsBehindError);
    });

    it("with whenBehind 'scan', reads what the links lack from $all at once, filtered on the server", async () => {
      const { client, store } = setUp();
      client.category.immediate = false;
      const a = await store.appendToStream('ws/u/memory/a', [record()], {
        expectedRevision: 'any',
      });
      await store.appendToStream('ws/other/memory/a', [record()], { expectedRevision: 'any' });
      await store.appendToStream('ws/u/memory/b', [record(), record()], {
        expectedRevision: 'any',
      });
      const erased = await store.appendToStream('ws/u/erasure/record', [record()], {
        expectedRevision: 'any',
      });
      client.catchUp(a.position); // only the first event is linked

      const started = Date.now();
      const found = await store.readUserEvents('ws', 'u', {
        consistentThrough: erased.position,
        whenBehind: 'scan',
      });
      expect(Date.now() - started).toBeLessThan(FAST_WAIT.timeoutMs);
      expect(found.map((e) => e.streamId)).toEqual([
        'ws/u/memory/a',
        'ws/u/memory/b',
        'ws/u/memory/b',
        'ws/u/erasure/record',
      ]);
      expect(client.subscriptions.at(-1)!.filter).toMatchObject({
        filterOn: 'streamName',
        prefixes: ['u/ws/u-'],
      });
      expect(client.subscriptions.at(-1)!.stream.writableEnded).toBe(true);

      // Page by page, as erasure reads: the same events, each once.
      const paged: RecordedEvent[] = [];
      for (let after: bigint | 'start' = 'start'; ;) {
        const page = await store.readUserEvents('ws', 'u', {
          after,
          maxCount: 1,
          consistentThrough: erased.position,
          whenBehind: 'scan',
        });
        if (page.length === 0) break;
        paged.push(...page);
        after = page.at(-1)!.globalPosition;
      }
      expect(positions(paged)).toEqual(positions(found));
    });

    it("with whenBehind 'scan' and projections stopped, still finds every event", async () => {
      const { client, store } = setUp();
      client.category.status = 'Stopped';
      await store.appendToStream('ws/u/memory/a', [record()], { expectedRevision: 'any' });
      const last = await store.appendToStream('ws/u/memory/b', [record()], {
        expectedRevision: 'any',
      });
      const found = await store.readUserEvents('ws', 'u', {
        consistentThrough: last.position,
        whenBehind: 'scan',
      });
      expect(found.map((e) => e.streamId)).toEqual(['ws/u/memory/a', 'ws/u/memory/b']);
    });

    it('pages from where the previous page ended: the cost follows the events read, not their square', async () => {
      const { client, store } = setUp();
      const count = 5000;
      for (let i = 0; i < count; i += 100) {
        const batch = Array.from({ length: 100 }, () => record());
        await store.appendToStream(`ws/heavy/memory/m${i}`, batch, { expectedRevision: 'any' });
      }
      client.reads.length = 0;

      const seen: RecordedEvent[] = [];
      for (let after: bigint | 'start' = 'start'; ;) {
        const page = await store.readUserEvents('ws', 'heavy', { after, maxCount: 1000 });
        seen.push(...page);
        if (page.length < 1000) break;
        after = page.at(-1)!.globalPosition;
      }

      expect(seen).toHaveLength(count);
      expect(new Set(positions(seen)).size).toBe(count);
      const linksRead = client.reads
        .filter((r) => r.target === '$ce-u/ws/heavy')
        .reduce((sum, r) => sum + r.returned, 0);
      // Each page reads its own links plus a binary search (a few single-link reads); restarting
      // at revision 0 would read 1000 + 2000 + … + 5000 = 15,000 links.
      expect(linksRead).toBeLessThan(count * 1.2);
    });
  });

  describe('subscribeToAll', () => {
    it('catches up strictly after `after`, follows live appends, ends on abort', async () => {
      const { store } = setUp();
      const first = await store.appendToStream('x', [record()], { expectedRevision: 'any' });
      await store.appendToStream('x', [record()], { expectedRevision: 'any' });
      const controller = new AbortController();
      const seen: string[] = [];

      for await (const event of store.subscribeToAll({
        after: first.position,
        signal: controller.signal,
      })) {
        seen.push(event.eventId);
        if (seen.length === 1)
          await store.appendToStream('x', [record()], { expectedRevision: 'any' });
        if (seen.length === 2) controller.abort();
      }
      expect(seen).toHaveLength(2);
    });

    it('has the server filter by stream prefix, mapped to physical names', async () => {
      const { client, store } = setUp();
      await store.appendToStream('ws/a/memory/1', [record()], { expectedRevision: 'any' });
      await store.appendToStream('ws/b/memory/1', [record()], { expectedRevision: 'any' });
      const controller = new AbortController();
      const seen: string[] = [];
      for await (const event of store.subscribeToAll({
        filter: { streamPrefixes: ['ws/b/'] },
        signal: controller.signal,
      })) {
        seen.push(event.streamId);
        controller.abort();
      }
      expect(seen).toEqual(['ws/b/memory/1']);
      expect(client.subscriptions[0]!.filter).toMatchObject({
        filterOn: 'streamName',
        prefixes: ['u/ws/b-', 'x-ws/b/'],
      });
    });

    it('closes the server stream as soon as the signal aborts, while the consumer holds an event', async () => {
      const { client, store } = setUp();
      await store.appendToStream('x', [record()], { expectedRevision: 'any' });
      const controller = new AbortController();
      const iterator = store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      await iterator.next(); // the consumer now holds the event and does not ask for the next
      controller.abort();
      await new Promise((resolve) => setImmediate(resolve));
      expect(client.subscriptions[0]!.stream.writableEnded).toBe(true);
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('unsubscribes when the consumer stops early, and opens nothing when already aborted', async () => {
      const { client, store } = setUp();
      await store.appendToStream('x', [record()], { expectedRevision: 'any' });
      for await (const event of store.subscribeToAll()) {
        expect(event.streamId).toBe('x');
        break;
      }
      expect(client.subscriptions[0]!.stream.writableEnded).toBe(true);

      for await (const event of store.subscribeToAll({ signal: AbortSignal.abort() })) void event;
      expect(client.subscriptions).toHaveLength(1);
    });

    it('skips and reports a foreign body instead of failing the subscriber', async () => {
      const { client, store, foreign } = setUp();
      client.writeRaw('u/ws/user-memory/m9', 'Binary', {
        isJson: false,
        data: new Uint8Array([1]),
      });
      await store.appendToStream('ws/user/memory/m1', [record()], { expectedRevision: 'any' });
      const controller = new AbortController();
      const seen: string[] = [];
      for await (const event of store.subscribeToAll({ signal: controller.signal })) {
        seen.push(event.streamId);
        controller.abort();
      }
      expect(seen).toEqual(['ws/user/memory/m1']);
      expect(foreign).toHaveLength(1);
    });
  });

  describe('the $by_category check (startup and /health)', () => {
    it('verifies the separator on the newest Engram event', async () => {
      const { store } = setUp();
      expect(await store.checkCategoryProjection()).toMatchObject({ separator: 'no-event-yet' });
      await store.appendToStream('ws/u/memory/a-b-c', [record()], { expectedRevision: 'any' });
      expect(await store.checkCategoryProjection()).toEqual({
        projection: '$by_category',
        status: 'Running',
        separator: 'verified',
      });
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('refuses a stopped projection, an unreadable one, and another separator', async () => {
      const stopped = setUp();
      stopped.client.category.status = 'Stopped';
      await expect(stopped.store.checkCategoryProjection()).rejects.toThrow(/Stopped, not Running/);
      await expect(stopped.store.ping()).rejects.toBeInstanceOf(EventStoreMisconfiguredError);

      const off = setUp();
      off.client.failNext('getProjectionStatus', 'unavailable');
      await expect(off.store.checkCategoryProjection()).rejects.toThrow(
        /EVENTSTORE_RUN_PROJECTIONS/,
      );

      const last = setUp();
      last.client.category.separator = 'last';
      await last.store.appendToStream('ws/u/memory/a-b', [record()], { expectedRevision: 'any' });
      await expect(last.store.checkCategoryProjection()).rejects.toThrow(/first "-"/);
    });
  });

  it('headPosition is the last Engram event, past links and foreign streams, or 0n', async () => {
    const { client, store } = setUp();
    expect(await store.headPosition()).toBe(0n);
    const { position } = await store.appendToStream('ws/u/memory/a', [record()], {
      expectedRevision: 'any',
    });
    client.writeRaw('orders-1', 'OrderPlaced', { isJson: true, data: {} });
    expect(await store.headPosition()).toBe(position);
  });

  it('tombstoned events stay in $all until the operator scavenges', async () => {
    const { client, store } = setUp();
    await store.appendToStream('ws/u/memory/a', [record()], { expectedRevision: 'any' });
    await store.deleteStream('ws/u/memory/a');
    expect(await store.readAll()).toHaveLength(1);
    expect(await store.readUserEvents('ws', 'u')).toEqual([]);
    client.scavenge();
    expect(await store.readAll()).toEqual([]);
  });
});
