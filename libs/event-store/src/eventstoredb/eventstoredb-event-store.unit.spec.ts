import { PassThrough, Readable } from 'node:stream';
import {
  StreamDeletedError as EsdbStreamDeletedError,
  StreamNotFoundError as EsdbStreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@eventstore/db-client';
import type {
  AllStreamResolvedEvent,
  EventData,
  EventStoreDBClient,
  ReadAllOptions as EsdbReadAllOptions,
  ReadStreamOptions as EsdbReadStreamOptions,
  SubscribeToAllOptions,
} from '@eventstore/db-client';
import { StreamDeletedError, StreamNotFoundError, WrongExpectedVersionError } from '../errors';
import type { RecordedEvent } from '../event-store.port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * These tests pin down the adapter's own logic (mapping, paging, exclusivity, filtering, shutdown)
 * against a fake client; they say nothing about a real server's behaviour.
 */

type Stored = { stream: string; type: string; position: bigint; revision: bigint; data?: unknown };

function recorded(stored: Stored): AllStreamResolvedEvent {
  return {
    event: {
      streamId: stored.stream,
      id: `00000000-0000-4000-8000-${stored.position.toString().padStart(12, '0')}`,
      isJson: true,
      revision: stored.revision,
      type: stored.type,
      created: new Date(0),
      data: (stored.data ?? { n: Number(stored.position) }) as Record<string, unknown>,
      metadata: { schemaVersion: 2, userId: 'u' },
      position: { commit: stored.position, prepare: stored.position },
    },
    commitPosition: stored.position,
  };
}

function streamingRead<T>(items: readonly T[]): Readable & { cancel(): Promise<void> } {
  return Object.assign(Readable.from(items), { cancel: () => Promise.resolve() });
}

function failingRead(error: Error): Readable & { cancel(): Promise<void> } {
  const read = new PassThrough({ objectMode: true });
  process.nextTick(() => read.destroy(error));
  return Object.assign(read, { cancel: () => Promise.resolve() });
}

/** `$all` as an ordered log; reads start inclusively at `fromPosition` like ESDB's. */
class FakeClient {
  readonly log: Stored[] = [];
  readonly appended: Array<{ stream: string; events: EventData[]; expectedRevision: unknown }> = [];
  readonly subscriptions: PassThrough[] = [];
  readAllCalls = 0;
  appendResult: () => Promise<unknown> = () =>
    Promise.resolve({
      success: true,
      nextExpectedRevision: 1n,
      position: { commit: 500n, prepare: 500n },
    });
  readStreamResult: (stream: string, options: EsdbReadStreamOptions) => Readable = () =>
    streamingRead([]);

  appendToStream(stream: string, events: EventData[], options: { expectedRevision: unknown }) {
    this.appended.push({ stream, events, expectedRevision: options.expectedRevision });
    return this.appendResult();
  }

  readStream(stream: string, options: EsdbReadStreamOptions) {
    return this.readStreamResult(stream, options);
  }

  readAll(options: EsdbReadAllOptions) {
    this.readAllCalls += 1;
    const from = options.fromPosition;
    const backwards = options.direction === 'backwards';
    const ordered = backwards ? [...this.log].reverse() : this.log;
    const selected = ordered.filter((e) => {
      if (from === undefined || from === 'start' || from === 'end') return true;
      return backwards ? e.position < from.commit : e.position >= from.commit;
    });
    return streamingRead(selected.slice(0, Number(options.maxCount)).map(recorded));
  }

  subscribeToAll(options: SubscribeToAllOptions) {
    const from = options.fromPosition;
    const stream = new PassThrough({ objectMode: true });
    for (const stored of this.log) {
      if (
        from === undefined ||
        from === 'start' ||
        (from !== 'end' && stored.position > from.commit)
      ) {
        stream.write(recorded(stored));
      }
    }
    this.subscriptions.push(stream);
    return Object.assign(stream, {
      unsubscribe: () => {
        stream.end();
        return Promise.resolve();
      },
    });
  }
}

function storeWith(client: FakeClient): EventStoreDbEventStore {
  return new EventStoreDbEventStore(client as unknown as EventStoreDBClient);
}

const record = {
  eventId: '2b3c2a3e-1111-4222-8333-444455556666',
  type: 'MemoryStored',
  schemaVersion: 3,
  data: { text: 'hello' },
  metadata: { workspaceId: 'ws', userId: 'user-1' },
};

describe('EventStoreDbEventStore (fake client)', () => {
  it('appends JSON events to the physical stream with schemaVersion in the metadata', async () => {
    const client = new FakeClient();
    const result = await storeWith(client).appendToStream('ws/user-1/memory/m1', [record], {
      expectedRevision: 'no_stream',
    });

    expect(result).toEqual({ nextExpectedRevision: 1n, position: 500n });
    const [call] = client.appended;
    expect(call?.stream).toBe('u/ws/user~1-memory/m1');
    expect(call?.expectedRevision).toBe('no_stream');
    expect(call?.events[0]).toMatchObject({
      id: record.eventId,
      type: 'MemoryStored',
      contentType: 'application/json',
      data: { text: 'hello' },
      metadata: { workspaceId: 'ws', userId: 'user-1', schemaVersion: 3 },
    });
  });

  it('maps a wrong expected version, with the actual revision', async () => {
    const client = new FakeClient();
    client.appendResult = () =>
      Promise.reject(
        new EsdbWrongExpectedVersionError(undefined, {
          streamName: 'x',
          expected: 0n,
          current: 4n,
        }),
      );
    const append = storeWith(client).appendToStream('s', [record], { expectedRevision: 0n });

    await expect(append).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(append).rejects.toMatchObject({ streamId: 's', expected: 0n, actual: 4n });
  });

  it('maps an append to a deleted stream', async () => {
    const client = new FakeClient();
    client.appendResult = () => Promise.reject(EsdbStreamDeletedError.fromStreamName('x-s'));

    await expect(
      storeWith(client).appendToStream('s', [record], { expectedRevision: 'any' }),
    ).rejects.toEqual(new StreamDeletedError('s'));
  });

  it('reads the position of an idempotent retry when ESDB reports none', async () => {
    const client = new FakeClient();
    client.appendResult = () =>
      Promise.resolve({ success: true, nextExpectedRevision: 7n, position: undefined });
    client.readStreamResult = (stream, options) => {
      expect(stream).toBe('x-s');
      expect(options.fromRevision).toBe(7n);
      return streamingRead([recorded({ stream, type: 'T', position: 900n, revision: 7n })]);
    };

    const result = await storeWith(client).appendToStream('s', [record], { expectedRevision: 6n });
    expect(result).toEqual({ nextExpectedRevision: 7n, position: 900n });
  });

  it('reads a stream back under its logical name, without the schemaVersion metadata', async () => {
    const client = new FakeClient();
    client.readStreamResult = (stream) =>
      streamingRead([recorded({ stream, type: 'T', position: 42n, revision: 0n, data: { a: 1 } })]);

    const [event] = await storeWith(client).readStream('ws/~/settings/main');
    expect(event).toEqual<RecordedEvent>({
      eventId: expect.any(String) as string,
      type: 'T',
      schemaVersion: 2,
      data: { a: 1 },
      metadata: { userId: 'u' },
      streamId: 'ws/~/settings/main',
      streamRevision: 0n,
      globalPosition: 42n,
      recordedAt: new Date(0),
    });
  });

  it.each([
    ['missing', new EsdbStreamNotFoundError(undefined, 'x-s')],
    ['deleted', EsdbStreamDeletedError.fromStreamName('x-s')],
  ])('throws StreamNotFoundError for a %s stream', async (_, error) => {
    const client = new FakeClient();
    client.readStreamResult = () => failingRead(error);

    await expect(storeWith(client).readStream('s')).rejects.toEqual(new StreamNotFoundError('s'));
  });

  describe('readAll', () => {
    function clientWithLog(count: number): FakeClient {
      const client = new FakeClient();
      for (let i = 1; i <= count; i += 1) {
        const system = i % 3 === 0;
        client.log.push({
          stream: system ? '$ce-u/ws/user' : `u/ws/user-memory/m${i % 2}`,
          type: system ? '$>' : i % 4 === 1 ? 'MemoryStored' : 'MemoryEdited',
          position: BigInt(i * 10),
          revision: 0n,
        });
      }
      client.log.push({
        stream: 'orders-1',
        type: 'Foreign',
        position: BigInt(count * 10 + 10),
        revision: 0n,
      });
      return client;
    }

    it('skips system events and foreign streams, in order, across pages', async () => {
      const client = clientWithLog(2500);
      const events = await storeWith(client).readAll();

      expect(events).toHaveLength(2500 - Math.floor(2500 / 3));
      expect(events.every((e) => e.streamId.startsWith('ws/user/memory/'))).toBe(true);
      const positions = events.map((e) => e.globalPosition);
      expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
      expect(new Set(positions).size).toBe(positions.length);
      expect(client.readAllCalls).toBe(3);
    });

    it('reads strictly after `after`', async () => {
      const events = await storeWith(clientWithLog(10)).readAll({ after: 40n, maxCount: 2 });
      expect(events.map((e) => e.globalPosition)).toEqual([50n, 70n]);
    });

    it('filters by event type prefix and logical stream prefix', async () => {
      const store = storeWith(clientWithLog(12));
      const byType = await store.readAll({ filter: { eventTypePrefixes: ['MemoryS'] } });
      expect(byType.map((e) => e.globalPosition)).toEqual([10n, 50n]);

      const byStream = await store.readAll({ filter: { streamPrefixes: ['ws/user/memory/m1'] } });
      expect(byStream.map((e) => e.globalPosition)).toEqual([10n, 50n, 70n, 110n]);

      const none = await store.readAll({ filter: { streamPrefixes: ['ws/other/'] } });
      expect(none).toEqual([]);
    });
  });

  it('headPosition is the last visible event, or 0n', async () => {
    const client = new FakeClient();
    expect(await storeWith(client).headPosition()).toBe(0n);

    client.log.push({ stream: 'x-s', type: 'T', position: 10n, revision: 0n });
    for (let i = 2; i < 300; i += 1)
      client.log.push({ stream: '$et-T', type: '$>', position: BigInt(i * 10), revision: 0n });
    expect(await storeWith(client).headPosition()).toBe(10n);
  });

  it('readUserEvents skips deleted links and events up to `after`', async () => {
    const client = new FakeClient();
    client.readStreamResult = (stream, options) => {
      expect(stream).toBe('$ce-u/ws~1/user~1');
      expect(options.resolveLinkTos).toBe(true);
      const link = (revision: bigint) =>
        recorded({ stream, type: '$>', position: 1000n + revision, revision }).event;
      return streamingRead([
        {
          ...recorded({ stream: 'u/ws~1/user~1-memory/a', type: 'T', position: 10n, revision: 0n }),
          link: link(0n),
        },
        { link: link(1n) },
        {
          ...recorded({ stream: 'u/ws~1/user~1-memory/b', type: 'T', position: 30n, revision: 0n }),
          link: link(2n),
        },
      ]);
    };

    const all = await storeWith(client).readUserEvents('ws-1', 'user-1');
    expect(all.map((e) => [e.streamId, e.globalPosition])).toEqual([
      ['ws-1/user-1/memory/a', 10n],
      ['ws-1/user-1/memory/b', 30n],
    ]);
    const later = await storeWith(client).readUserEvents('ws-1', 'user-1', { after: 10n });
    expect(later.map((e) => e.globalPosition)).toEqual([30n]);
  });

  it('readUserEvents returns nothing before the category stream exists', async () => {
    const client = new FakeClient();
    client.readStreamResult = () =>
      failingRead(new EsdbStreamNotFoundError(undefined, '$ce-u/ws/user'));
    expect(await storeWith(client).readUserEvents('ws', 'user')).toEqual([]);
  });

  describe('subscribeToAll', () => {
    it('catches up after `after`, follows live events, ends on abort', async () => {
      const client = new FakeClient();
      client.log.push(
        { stream: 'x-a', type: 'T', position: 10n, revision: 0n },
        { stream: '$et-T', type: '$>', position: 20n, revision: 0n },
        { stream: 'x-a', type: 'T', position: 30n, revision: 1n },
      );
      const controller = new AbortController();
      const seen: bigint[] = [];

      const consuming = (async () => {
        for await (const event of storeWith(client).subscribeToAll({
          after: 10n,
          signal: controller.signal,
        })) {
          seen.push(event.globalPosition);
          if (event.globalPosition === 30n) {
            client.subscriptions[0]?.write(
              recorded({ stream: 'x-a', type: 'T', position: 40n, revision: 2n }),
            );
            client.subscriptions[0]?.write(
              recorded({ stream: 'x-a', type: 'T', position: 40n, revision: 2n }),
            );
          }
          if (event.globalPosition === 40n) setTimeout(() => controller.abort(), 10);
        }
      })();

      await consuming;
      expect(seen).toEqual([30n, 40n]);
      expect(client.subscriptions[0]?.writableEnded).toBe(true);
    });

    it('ends at once when already aborted', async () => {
      const client = new FakeClient();
      const seen: RecordedEvent[] = [];
      for await (const event of storeWith(client).subscribeToAll({ signal: AbortSignal.abort() }))
        seen.push(event);
      expect(seen).toEqual([]);
      expect(client.subscriptions).toHaveLength(0);
    });

    it('unsubscribes when the consumer stops early', async () => {
      const client = new FakeClient();
      client.log.push({ stream: 'x-a', type: 'T', position: 10n, revision: 0n });
      for await (const event of storeWith(client).subscribeToAll()) {
        expect(event.streamId).toBe('a');
        break;
      }
      expect(client.subscriptions[0]?.writableEnded).toBe(true);
    });
  });
});
