import { randomUUID } from 'node:crypto';
import {
  DuplicateEventIdError,
  StreamDeletedError,
  parseUnparsedEvent,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type EventRecord,
  type EventStore,
  type RecordedEvent,
} from '@engram/event-store';

/**
 * Where an adapter departs from the reference semantics (the PostgreSQL adapter's), as its own
 * documentation says; the tests of those points are skipped for it.
 */
export type ContractDeviation =
  /** A stored event id is recognised only when retried at the same expected revision of its stream. */
  | 'retriesRecognisedOnlyAtSameRevision'
  /** A deleted stream's events stay readable in the global order (until a scavenge). */
  | 'deletedEventsStayInAll'
  /** Closing an owner (an erasure) does not refuse their new streams (no atomic check). */
  | 'ownersNotClosed';

export type StoreFactory = Readonly<{
  create: () => Promise<EventStore>;
  dispose: () => Promise<void>;
  deviations?: readonly ContractDeviation[];
}>;

function record(type = 'ContractTested', data: Record<string, unknown> = {}): EventRecord {
  return {
    eventId: randomUUID(),
    type,
    schemaVersion: 1,
    data: { value: Math.random(), ...data },
    metadata: {
      workspaceId: 'w',
      userId: 'u',
      correlationId: 'c',
      causationId: 'c',
      occurredAt: new Date().toISOString(),
    },
  };
}

/** Streams of one test: a fresh workspace so that tests never see each other's events. */
function scope() {
  const ws = `ws-${randomUUID().slice(0, 8)}`;
  return { ws, stream: (user: string, id: string) => `${ws}/${user}/contract/${id}` };
}

async function collect(
  iterable: AsyncIterable<RecordedEvent>,
  count: number,
  controller: AbortController,
): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  for await (const event of iterable) {
    seen.push(event);
    if (seen.length >= count) break;
  }
  controller.abort();
  return seen;
}

/** The behaviour every EventStore adapter must have; run by each adapter's spec file. */
export function eventStoreContract(factory: StoreFactory): void {
  const unless = (deviation: ContractDeviation) =>
    factory.deviations?.includes(deviation) ? it.skip : it;
  let store: EventStore;
  beforeAll(async () => {
    store = await factory.create();
  });
  afterAll(async () => {
    await store.close();
    await factory.dispose();
  });

  describe('appendToStream', () => {
    it('appends to a new stream and returns its revision and global position', async () => {
      const { stream } = scope();
      const result = await store.appendToStream(stream('u1', 'a'), [record(), record()], {
        expectedRevision: 'no_stream',
      });
      expect(result.nextExpectedRevision).toBe(1n);
      const events = await store.readStream(stream('u1', 'a'));
      expect(events.map((e) => e.streamRevision)).toEqual([0n, 1n]);
      expect(events[1]!.globalPosition).toBe(result.position);
      expect(events[0]!.globalPosition < events[1]!.globalPosition).toBe(true);
    });

    it('checks the expected revision: no_stream, stream_exists, an exact revision, any', async () => {
      const { stream } = scope();
      const id = stream('u1', 'b');
      await expect(
        store.appendToStream(id, [record()], { expectedRevision: 'stream_exists' }),
      ).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await store.appendToStream(id, [record()], { expectedRevision: 'no_stream' });
      await expect(
        store.appendToStream(id, [record()], { expectedRevision: 'no_stream' }),
      ).rejects.toMatchObject({ name: 'WrongExpectedVersionError', actual: 0n });
      await expect(
        store.appendToStream(id, [record()], { expectedRevision: 5n }),
      ).rejects.toBeInstanceOf(WrongExpectedVersionError);
      const exact = await store.appendToStream(id, [record()], { expectedRevision: 0n });
      expect(exact.nextExpectedRevision).toBe(1n);
      const exists = await store.appendToStream(id, [record()], {
        expectedRevision: 'stream_exists',
      });
      expect(exists.nextExpectedRevision).toBe(2n);
      const any = await store.appendToStream(id, [record()], { expectedRevision: 'any' });
      expect(any.nextExpectedRevision).toBe(3n);
    });

    it('is idempotent on event ids: a retry returns the first result and writes nothing', async () => {
      const { stream } = scope();
      const id = stream('u1', 'c');
      const events = [record(), record()];
      const first = await store.appendToStream(id, events, { expectedRevision: 'no_stream' });
      const retry = await store.appendToStream(id, events, { expectedRevision: 'no_stream' });
      expect(retry).toMatchObject({
        nextExpectedRevision: first.nextExpectedRevision,
        position: first.position,
      });
      // Adapters that can tell say which attempt wrote the events.
      if (first.alreadyStored !== undefined) {
        expect([first.alreadyStored, retry.alreadyStored]).toEqual([false, true]);
      }
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('lets exactly one of two concurrent writers with the same expectation win', async () => {
      const { stream } = scope();
      const id = stream('u1', 'race');
      await store.appendToStream(id, [record()], { expectedRevision: 'no_stream' });
      const outcomes = await Promise.allSettled(
        [record(), record()].map((event) =>
          store.appendToStream(id, [event], { expectedRevision: 0n }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    unless('retriesRecognisedOnlyAtSameRevision')(
      'answers a retry after the stream moved on, and refuses an event id reused elsewhere',
      async () => {
        const { stream } = scope();
        const id = stream('u1', 'reuse');
        expect(store.recognisesRetriesAnywhere).toBe(true); // handleCommand relies on it
        const events = [record(), record()];
        const first = await store.appendToStream(id, events, { expectedRevision: 'no_stream' });
        await store.appendToStream(id, [record()], { expectedRevision: 1n });
        expect(
          await store.appendToStream(id, events, { expectedRevision: 'no_stream' }),
        ).toMatchObject({ nextExpectedRevision: 1n, position: first.position });
        const reused = [record(), events[1]!];
        await expect(
          store.appendToStream(stream('u1', 'other'), reused, { expectedRevision: 'any' }),
        ).rejects.toMatchObject({ name: 'DuplicateEventIdError', eventId: events[1]!.eventId });
        await expect(
          store.appendToStream(id, [events[1]!, events[0]!], { expectedRevision: 'any' }),
        ).rejects.toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(id)).toHaveLength(3);
      },
    );

    it('keeps what was appended: a caller changing its objects afterwards changes nothing', async () => {
      const { stream } = scope();
      const id = stream('u1', 'copy');
      const event = record('ContractTested', { nested: { items: ['a'] } });
      await store.appendToStream(id, [event], { expectedRevision: 'no_stream' });
      (event.data.nested as { items: string[] }).items.push('changed by the writer');
      const [read] = await store.readStream(id);
      (read!.data.nested as { items: string[] }).items.push('changed by a reader');
      read!.metadata.userId = 'changed by a reader';
      const [again] = await store.readStream(id);
      expect(again!.data.nested).toEqual({ items: ['a'] });
      expect(again!.metadata.userId).toBe('u');
    });
  });

  describe('readStream', () => {
    it('reads forwards and backwards, from a revision, with a max count', async () => {
      const { stream } = scope();
      const id = stream('u1', 'd');
      const written = Array.from({ length: 5 }, () => record());
      await store.appendToStream(id, written, { expectedRevision: 'no_stream' });
      const ids = written.map((e) => e.eventId);
      expect((await store.readStream(id)).map((e) => e.eventId)).toEqual(ids);
      expect(
        (await store.readStream(id, { fromRevision: 2n, maxCount: 2 })).map((e) => e.eventId),
      ).toEqual(ids.slice(2, 4));
      expect(
        (await store.readStream(id, { direction: 'backwards', maxCount: 2 })).map((e) => e.eventId),
      ).toEqual([ids[4], ids[3]]);
      expect(
        (await store.readStream(id, { direction: 'backwards', fromRevision: 1n })).map(
          (e) => e.eventId,
        ),
      ).toEqual([ids[1], ids[0]]);
      const [first] = await store.readStream(id, { maxCount: 1 });
      expect(first).toMatchObject({ type: 'ContractTested', schemaVersion: 1, streamId: id });
      expect(first!.data).toEqual(written[0]!.data);
      expect(first!.metadata).toEqual(written[0]!.metadata);
      expect(first!.recordedAt).toBeInstanceOf(Date);
    });

    it('throws StreamNotFoundError for a stream that does not exist', async () => {
      const { stream } = scope();
      await expect(store.readStream(stream('u1', 'missing'))).rejects.toBeInstanceOf(
        StreamNotFoundError,
      );
    });
  });

  describe('readAll', () => {
    it('reads in global order after a position, filtered by event type and stream prefixes', async () => {
      const { ws, stream } = scope();
      const before = await store.headPosition();
      await store.appendToStream(stream('u1', 'e'), [record('Alpha.One'), record('Beta.One')], {
        expectedRevision: 'no_stream',
      });
      await store.appendToStream(stream('u2', 'e'), [record('Alpha.Two')], {
        expectedRevision: 'no_stream',
      });
      const all = await store.readAll({ after: before, filter: { streamPrefixes: [`${ws}/`] } });
      expect(all.map((e) => e.type)).toEqual(['Alpha.One', 'Beta.One', 'Alpha.Two']);
      const positions = all.map((e) => e.globalPosition);
      expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);

      const alphas = await store.readAll({
        after: before,
        filter: { eventTypePrefixes: ['Alpha.'], streamPrefixes: [`${ws}/`] },
      });
      expect(alphas.map((e) => e.type)).toEqual(['Alpha.One', 'Alpha.Two']);
      const user2 = await store.readAll({
        after: before,
        filter: { streamPrefixes: [`${ws}/u2/`] },
      });
      expect(user2.map((e) => e.type)).toEqual(['Alpha.Two']);
      const afterFirst = await store.readAll({
        after: all[0]!.globalPosition,
        maxCount: 1,
        filter: { streamPrefixes: [`${ws}/`] },
      });
      expect(afterFirst.map((e) => e.type)).toEqual(['Beta.One']);
    });

    it("reads one user's events across their streams, in global order", async () => {
      const { ws, stream } = scope();
      await store.appendToStream(stream('alice', 'x'), [record('A1')], {
        expectedRevision: 'no_stream',
      });
      await store.appendToStream(stream('bob', 'x'), [record('B1')], {
        expectedRevision: 'no_stream',
      });
      await store.appendToStream(stream('alice', 'y'), [record('A2')], {
        expectedRevision: 'no_stream',
      });
      const last = await store.appendToStream(stream('alice', 'x'), [record('A3')], {
        expectedRevision: 0n,
      });
      // Read-your-writes: consistent with the last append (EventStoreDB's index trails appends).
      const consistentThrough = last.position;
      const events = await store.readUserEvents(ws, 'alice', { consistentThrough });
      expect(events.map((e) => e.type)).toEqual(['A1', 'A2', 'A3']);
      const later = await store.readUserEvents(ws, 'alice', {
        after: events[0]!.globalPosition,
        consistentThrough,
      });
      expect(later.map((e) => e.type)).toEqual(['A2', 'A3']);
      const page = await store.readUserEvents(ws, 'alice', {
        after: events[0]!.globalPosition,
        maxCount: 1,
        consistentThrough,
      });
      expect(page.map((e) => e.type)).toEqual(['A2']);
      const scanned = await store.readUserEvents(ws, 'alice', {
        consistentThrough,
        whenBehind: 'scan',
      });
      expect(scanned.map((e) => e.type)).toEqual(['A1', 'A2', 'A3']);
      // The same events, data and metadata as their JSON text (the export's read).
      const unparsed = await store.readUserEventsUnparsed(ws, 'alice', {
        after: events[0]!.globalPosition,
        consistentThrough,
      });
      expect(unparsed.map((e) => typeof e.data + typeof e.metadata)).toEqual([
        'stringstring',
        'stringstring',
      ]);
      expect(unparsed.map(parseUnparsedEvent)).toEqual(later);
    });
  });

  describe('subscribeToAll', () => {
    it('catches up, then follows live appends', async () => {
      const { ws, stream } = scope();
      const start = await store.headPosition();
      await store.appendToStream(stream('u1', 'f'), [record('Old')], {
        expectedRevision: 'no_stream',
      });
      const controller = new AbortController();
      const seen = collect(
        store.subscribeToAll({
          after: start,
          filter: { streamPrefixes: [`${ws}/`] },
          signal: controller.signal,
        }),
        3,
        controller,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.appendToStream(stream('u1', 'f'), [record('Live1')], { expectedRevision: 0n });
      await store.appendToStream(stream('u2', 'f'), [record('Live2')], {
        expectedRevision: 'no_stream',
      });
      expect((await seen).map((e) => e.type)).toEqual(['Old', 'Live1', 'Live2']);
    });

    it('stops when its signal aborts', async () => {
      const controller = new AbortController();
      const iterator = store.subscribeToAll({
        after: await store.headPosition(),
        signal: controller.signal,
      });
      const done = (async () => {
        for await (const event of iterator) void event;
      })();
      controller.abort();
      await expect(done).resolves.toBeUndefined();
    });
  });

  describe('deleteStream', () => {
    it('deletes a stream: it reads as not found and cannot be appended to again', async () => {
      const { stream } = scope();
      const id = stream('u1', 'g');
      await store.appendToStream(id, [record()], { expectedRevision: 'no_stream' });
      await store.deleteStream(id);
      await expect(store.readStream(id)).rejects.toBeInstanceOf(StreamNotFoundError);
      await expect(
        store.appendToStream(id, [record()], { expectedRevision: 'any' }),
      ).rejects.toBeInstanceOf(StreamDeletedError);
    });

    unless('deletedEventsStayInAll')(
      "removes the stream's events from readAll and readUserEvents, not the others",
      async () => {
        const { ws, stream } = scope();
        const before = await store.headPosition();
        await store.appendToStream(stream('u1', 'gone'), [record('Gone')], {
          expectedRevision: 'no_stream',
        });
        await store.appendToStream(stream('u1', 'kept'), [record('Kept')], {
          expectedRevision: 'no_stream',
        });
        await store.deleteStream(stream('u1', 'gone'));
        const all = await store.readAll({ after: before, filter: { streamPrefixes: [`${ws}/`] } });
        expect(all.map((e) => e.type)).toEqual(['Kept']);
        expect((await store.readUserEvents(ws, 'u1')).map((e) => e.type)).toEqual(['Kept']);
      },
    );
  });

  describe('closeOwner', () => {
    unless('ownersNotClosed')(
      "refuses new streams of a closed owner but under the kept prefixes; their existing streams and other owners' are not affected",
      async () => {
        const { ws, stream } = scope();
        const first = record();
        await store.appendToStream(stream('u1', 'old'), [first], { expectedRevision: 'no_stream' });
        expect(store.closesOwnersAtomically).toBe(true);
        const keep = [stream('u1', 'record'), `${ws}/u1/audit/`];
        await store.closeOwner(ws, 'u1', keep);
        await store.closeOwner(ws, 'u1', keep); // idempotent
        await expect(
          store.appendToStream(stream('u1', 'late'), [record()], { expectedRevision: 'any' }),
        ).rejects.toBeInstanceOf(StreamDeletedError);
        // Sent together (one group commit on PostgreSQL), with a retry among them, which takes the
        // append function's request-by-request path: each request keeps its own answer.
        const [late, other, retry] = await Promise.allSettled([
          store.appendToStream(stream('u1', 'later'), [record()], {
            expectedRevision: 'no_stream',
          }),
          store.appendToStream(stream('u2', 'new'), [record()], { expectedRevision: 'no_stream' }),
          store.appendToStream(stream('u1', 'old'), [first], { expectedRevision: 'no_stream' }),
        ]);
        expect(late.status === 'rejected' && late.reason).toBeInstanceOf(StreamDeletedError);
        expect(retry.status === 'fulfilled' && retry.value.alreadyStored).toBe(true);
        expect(other.status).toBe('fulfilled');
        await store.appendToStream(stream('u1', 'record'), [record()], {
          expectedRevision: 'no_stream',
        });
        await store.appendToStream(`${ws}/u1/audit/2026-06-08`, [record()], {
          expectedRevision: 'no_stream',
        });
        await store.appendToStream(stream('u1', 'old'), [record()], { expectedRevision: 0n });
        expect((await store.readUserEvents(ws, 'u1')).map((e) => e.streamId)).toEqual([
          stream('u1', 'old'),
          stream('u1', 'record'),
          `${ws}/u1/audit/2026-06-08`,
          stream('u1', 'old'),
        ]);
      },
    );
  });

  describe('under load', () => {
    it('8 concurrent writers append 10,000 events; a live subscriber sees each exactly once, in order', async () => {
      const { ws, stream } = scope();
      const writers = 8;
      const perWriter = 1250;
      const start = await store.headPosition();
      const controller = new AbortController();
      const seen = collect(
        store.subscribeToAll({
          after: start,
          filter: { streamPrefixes: [`${ws}/`] },
          signal: controller.signal,
        }),
        writers * perWriter,
        controller,
      );
      const written = new Set<string>();
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          for (let i = 0; i < perWriter; i += 1) {
            const event = record('Stress');
            written.add(event.eventId);
            // Half the writers share streams, so revisions conflict and are retried.
            const id = stream(`w${writer % 4}`, `s${i % 10}`);
            for (;;) {
              try {
                await store.appendToStream(id, [event], { expectedRevision: 'any' });
                break;
              } catch (error) {
                if (!(error instanceof WrongExpectedVersionError)) throw error;
              }
            }
          }
        }),
      );
      const events = await seen;
      expect(events).toHaveLength(writers * perWriter);
      expect(new Set(events.map((e) => e.eventId))).toEqual(written);
      for (let i = 1; i < events.length; i += 1) {
        expect(events[i]!.globalPosition > events[i - 1]!.globalPosition).toBe(true);
      }
    });
  });
}
