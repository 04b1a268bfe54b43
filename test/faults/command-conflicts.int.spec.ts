import { randomUUID } from 'node:crypto';
import type { Decider, Event, EventMetadata } from '@engram/domain';
import {
  EventCodec,
  PostgresEventStore,
  WrongExpectedVersionError,
  handleCommand,
  type EventStore,
} from '@engram/event-store';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

type Counted = Event<'Counted', { to: number }>;
type Count = { type: 'Count' };

/** A decider whose every event depends on the state: an update decided on stale state would show. */
const counter: Decider<Count, Counted, number> = {
  initialState: () => 0,
  evolve: (_, event) => event.data.to,
  decide: (_, count) => [{ type: 'Counted', data: { to: count + 1 } }],
};

const codec = new EventCodec([{ type: 'Counted', version: 1, personalFields: [] }]);
const metadata: EventMetadata = {
  workspaceId: 'w1',
  userId: 'u1',
  causationId: 'test',
  correlationId: 'test',
  occurredAt: '2026-11-29T00:00:00.000Z',
};

/** Optimistic concurrency in command handlers: bounded retries on reloaded state, then a conflict. */
describe('command handling under concurrent writers', () => {
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

  /** The real store, with another writer slipping an event in before each of the first `times` appends. */
  function contendedStore(times: number): EventStore {
    let contended = 0;
    return new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'appendToStream')
          return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<EventStore['appendToStream']>) => {
          if (contended < times) {
            contended += 1;
            await handleCommand(
              { store: target, codec },
              args[0],
              counter,
              { type: 'Count' },
              {
                metadata,
              },
            );
          }
          return target.appendToStream(...args);
        };
      },
    });
  }

  const counts = async (stream: string) =>
    (await store.readStream(stream)).map((event) => (event.data as { to: number }).to);

  it('decides again on the reloaded state when another writer got in first', async () => {
    const stream = `w1/u1/counter/${randomUUID()}`;
    const result = await handleCommand(
      { store: contendedStore(2), codec },
      stream,
      counter,
      { type: 'Count' },
      { metadata },
    );
    // Two competing events, then ours, decided on a state that includes both.
    expect(result.history).toHaveLength(2);
    expect(await counts(stream)).toEqual([1, 2, 3]);
  });

  it('gives up with a conflict after the bounded attempts, writing nothing of its own', async () => {
    const stream = `w1/u1/counter/${randomUUID()}`;
    await expect(
      handleCommand(
        { store: contendedStore(3), codec },
        stream,
        counter,
        { type: 'Count' },
        {
          metadata,
          maxAttempts: 3,
        },
      ),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    // Only the three competitors' events: the conflicting command left no trace.
    expect(await counts(stream)).toEqual([1, 2, 3]);
  });

  it('a command that usually opens its stream reads nothing first, and decides on the stream when it exists', async () => {
    const reads: string[] = [];
    const counting = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'readStream') return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<EventStore['readStream']>) => {
          reads.push(args[0]);
          return target.readStream(...args);
        };
      },
    });
    const stream = `w1/u1/counter/${randomUUID()}`;
    const opened = await handleCommand(
      { store: counting, codec },
      stream,
      counter,
      { type: 'Count' },
      { metadata, usuallyOpensStream: true },
    );
    expect(reads).toEqual([]);
    expect(opened.history).toEqual([]);

    const next = await handleCommand(
      { store: counting, codec },
      stream,
      counter,
      { type: 'Count' },
      { metadata, usuallyOpensStream: true },
    );
    expect(reads).toEqual([stream]);
    expect(next.history).toHaveLength(1);
    expect(next.position).toBeGreaterThan(opened.position);
    expect(await counts(stream)).toEqual([1, 2]);
  });

  it('40 concurrent commands on one stream: each lands or is a conflict, never a lost update', async () => {
    const stream = `w1/u1/counter/${randomUUID()}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        handleCommand({ store, codec }, stream, counter, { type: 'Count' }, { metadata }),
      ),
    );
    const landed = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    const refused = outcomes.filter(
      (outcome) =>
        outcome.status === 'rejected' && outcome.reason instanceof WrongExpectedVersionError,
    ).length;
    expect(landed + refused).toBe(40);
    // Every landed command counted from the state left by the previous one: 1, 2, ... landed.
    expect(await counts(stream)).toEqual(Array.from({ length: landed }, (_, index) => index + 1));
    process.stdout.write(`40 concurrent commands: ${landed} landed, ${refused} conflicts (409)\n`);
  });
});
