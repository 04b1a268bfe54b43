import { randomUUID } from 'node:crypto';
import {
  DuplicateEventIdError,
  PostgresEventStore,
  StreamDeletedError,
  WrongExpectedVersionError,
  type EventRecord,
} from '@engram/event-store';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

function record(eventId: string = randomUUID()): EventRecord {
  return {
    eventId,
    type: 'GroupCommitTested',
    schemaVersion: 1,
    data: { value: eventId },
    metadata: { workspaceId: 'w', userId: 'u', occurredAt: new Date().toISOString() },
  };
}

type Settled = { value?: unknown; error?: unknown };

async function settleAll<K extends string>(
  promises: Record<K, Promise<unknown>>,
): Promise<Record<K, Settled>> {
  const entries = await Promise.all(
    Object.entries<Promise<unknown>>(promises).map(async ([name, promise]) => [
      name,
      await promise.then(
        (value): Settled => ({ value }),
        (error: unknown): Settled => ({ error }),
      ),
    ]),
  );
  return Object.fromEntries(entries) as Record<K, Settled>;
}

/** Requests sent in the same tick, while a first append is in flight, are written by one call. */
describe('PostgreSQL group commit: one batch, each request answered on its own', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore({ connectionString: database.appUrl });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  /** A fresh workspace with a deleted stream and a stream of two events; the head before the test. */
  async function givenDeletedAndExistingStreams() {
    const ws = `ws-${randomUUID().slice(0, 8)}`;
    const stream = (name: string) => `${ws}/u1/group/${name}`;
    await store.appendToStream(stream('deleted'), [record()], { expectedRevision: 'no_stream' });
    await store.deleteStream(stream('deleted'));
    await store.appendToStream(stream('existing'), [record(), record()], {
      expectedRevision: 'no_stream',
    });
    return { stream, headBefore: await store.headPosition() };
  }

  it('one request per stream, no retried id: written set-based, each refusal alone', async () => {
    const { stream, headBefore } = await givenDeletedAndExistingStreams();

    const opener = store.appendToStream(stream('opener'), [record()], {
      expectedRevision: 'no_stream',
    });
    const settled = await settleAll({
      three: store.appendToStream(stream('three'), [record(), record(), record()], {
        expectedRevision: 'no_stream',
      }),
      wrongRevision: store.appendToStream(stream('existing'), [record()], {
        expectedRevision: 0n,
      }),
      deleted: store.appendToStream(stream('deleted'), [record()], { expectedRevision: 'any' }),
      nothing: store.appendToStream(stream('empty'), [], { expectedRevision: 'any' }),
      exists: store.appendToStream(stream('missing'), [record()], {
        expectedRevision: 'stream_exists',
      }),
      last: store.appendToStream(stream('last'), [record()], { expectedRevision: 'any' }),
    });
    await opener;

    expect(settled.three.value).toEqual({
      nextExpectedRevision: 2n,
      position: headBefore + 4n,
      alreadyStored: false,
    });
    expect((settled.wrongRevision.error as WrongExpectedVersionError).actual).toBe(1n);
    expect(settled.deleted.error).toBeInstanceOf(StreamDeletedError);
    expect(settled.nothing.value).toEqual({
      nextExpectedRevision: -1n,
      position: headBefore + 4n,
      alreadyStored: false,
    });
    expect((settled.exists.error as WrongExpectedVersionError).actual).toBe('no_stream');
    expect(settled.last.value).toEqual({
      nextExpectedRevision: 0n,
      position: headBefore + 5n,
      alreadyStored: false,
    });

    const written = await store.readAll({ after: headBefore });
    expect(written.map((event) => [event.streamId, event.streamRevision])).toEqual([
      [stream('opener'), 0n],
      [stream('three'), 0n],
      [stream('three'), 1n],
      [stream('three'), 2n],
      [stream('last'), 0n],
    ]);
    expect(await store.headPosition()).toBe(headBefore + 5n);
  });

  it('the same new event id in two streams of one batch: the first is written, the second refused', async () => {
    const ws = `ws-${randomUUID().slice(0, 8)}`;
    const headBefore = await store.headPosition();
    const shared = record();
    const opener = store.appendToStream(`${ws}/u1/group/opener`, [record()], {
      expectedRevision: 'any',
    });
    const settled = await settleAll({
      first: store.appendToStream(`${ws}/u1/group/a`, [shared], { expectedRevision: 'any' }),
      second: store.appendToStream(`${ws}/u1/group/b`, [shared], { expectedRevision: 'any' }),
      last: store.appendToStream(`${ws}/u1/group/c`, [record()], { expectedRevision: 'any' }),
    });
    await opener;
    expect(settled.first.value).toEqual({
      nextExpectedRevision: 0n,
      position: headBefore + 2n,
      alreadyStored: false,
    });
    expect(settled.second.error).toBeInstanceOf(DuplicateEventIdError);
    expect(settled.last.value).toEqual({
      nextExpectedRevision: 0n,
      position: headBefore + 3n,
      alreadyStored: false,
    });
    expect(await store.headPosition()).toBe(headBefore + 3n);
  });

  it('refuses bad requests alone: wrong revision, deleted stream, clashing ids, refused data', async () => {
    const { stream, headBefore } = await givenDeletedAndExistingStreams();

    const shared = [record(), record()];
    const opener = store.appendToStream(stream('opener'), [record()], {
      expectedRevision: 'no_stream',
    });
    const batch = {
      fresh: store.appendToStream(stream('fresh'), shared, { expectedRevision: 'no_stream' }),
      retry: store.appendToStream(stream('fresh'), shared, { expectedRevision: 'no_stream' }),
      clash: store.appendToStream(stream('other'), [shared[0]!], { expectedRevision: 'any' }),
      partial: store.appendToStream(stream('fresh'), [shared[1]!, record()], {
        expectedRevision: 'any',
      }),
      wrongRevision: store.appendToStream(stream('missing'), [record()], {
        expectedRevision: 5n,
      }),
      deleted: store.appendToStream(stream('deleted'), [record()], { expectedRevision: 'any' }),
      refusedData: store.appendToStream(stream('bad'), [record('not-a-uuid')], {
        expectedRevision: 'any',
      }),
      existsAlready: store.appendToStream(stream('existing'), [record()], {
        expectedRevision: 'no_stream',
      }),
      notYet: store.appendToStream(stream('missing'), [record()], {
        expectedRevision: 'stream_exists',
      }),
      nothing: store.appendToStream(stream('existing'), [], { expectedRevision: 1n }),
      next: store.appendToStream(stream('existing'), [record()], { expectedRevision: 1n }),
    };
    const settled = await settleAll(batch);
    await opener;

    expect(settled.fresh.value).toEqual({
      nextExpectedRevision: 1n,
      position: headBefore + 3n,
      alreadyStored: false,
    });
    expect(settled.retry.value).toEqual({
      ...(settled.fresh.value as object),
      alreadyStored: true,
    });
    expect(settled.clash.error).toBeInstanceOf(DuplicateEventIdError);
    expect(settled.partial.error).toBeInstanceOf(DuplicateEventIdError);
    expect(settled.wrongRevision.error).toBeInstanceOf(WrongExpectedVersionError);
    expect((settled.wrongRevision.error as WrongExpectedVersionError).actual).toBe('no_stream');
    expect(settled.deleted.error).toBeInstanceOf(StreamDeletedError);
    expect((settled.existsAlready.error as WrongExpectedVersionError).actual).toBe(1n);
    expect((settled.notYet.error as WrongExpectedVersionError).actual).toBe('no_stream');
    expect(settled.refusedData.error).toBeInstanceOf(Error);
    expect(settled.nothing.value).toEqual({
      nextExpectedRevision: 1n,
      position: headBefore + 3n,
      alreadyStored: false,
    });
    expect(settled.next.value).toEqual({
      nextExpectedRevision: 2n,
      position: headBefore + 4n,
      alreadyStored: false,
    });

    // Nothing half-written: only the opener, the fresh stream and the existing stream's new event.
    expect(await store.headPosition()).toBe(headBefore + 4n);
    const written = await store.readAll({ after: headBefore });
    expect(written.map((event) => [event.streamId, event.streamRevision])).toEqual([
      [stream('opener'), 0n],
      [stream('fresh'), 0n],
      [stream('fresh'), 1n],
      [stream('existing'), 2n],
    ]);
    await expect(store.readStream(stream('missing'))).rejects.toThrow('not found');
  });
});
