import {
  openStoreAndProjector,
  type StoreAndProjector,
} from '../../test/support/store-and-projector';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_CATALOG } from '@engram/domain';
import {
  EventCodec,
  PostgresEventStore,
  StreamDeletedError,
  plainPayloads,
  type DecodedEvent,
} from '@engram/event-store';
import {
  ProjectionRunner,
  SharedEventFeed,
  readCheckpoint,
  userStreamStatsProjection,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { appendMessage } from '../../test/support/append-message';
import { RetryLaterError } from './reactor';
import { ReactorRunner } from './reactor-runner';
import { REACTOR_SKIPPED_CHECKPOINT_MS } from './skipped-checkpoints';

describe('a reactor on the shared event feed', () => {
  let store: PostgresEventStore;
  let dataSource: DataSource;
  const eventIds: string[] = [];

  async function reached(name: string, position: bigint): Promise<void> {
    for (let tries = 0; (await readCheckpoint(dataSource.manager, name)) < position; tries += 1) {
      if (tries > 400) throw new Error(`${name} did not reach ${position}`);
      await sleep(25);
    }
  }

  async function append(): Promise<bigint> {
    const { messageId, position } = await appendMessage(store);
    eventIds.push(messageId);
    return position;
  }

  let opened: StoreAndProjector;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
    ({ store, projector: dataSource } = opened);
  });
  afterAll(() => opened.close());

  it('retries a failing event before any later one, moves its checkpoint after each success, and shares the decodes', async () => {
    const positions: bigint[] = [];
    for (let i = 0; i < 3; i += 1) positions.push(await append());
    const erased = eventIds[2];
    let opened = 0;
    const codec = new EventCodec(EVENT_CATALOG, {
      seal: plainPayloads.seal,
      open: async (record, definition) => {
        opened += 1;
        const result = await plainPayloads.open(record, definition);
        return { ...result, erased: record.eventId === erased };
      },
    });
    const feed = new SharedEventFeed(store, codec);
    const reacted: string[] = [];
    const checkpointsAtRetry: bigint[] = [];
    let failures = 0;
    const reactor = new ReactorRunner(
      { store, codec, dataSource, feed },
      {
        name: 'probe',
        handles: ['MessageRecorded'],
        react: async (event: DecodedEvent) => {
          reacted.push(event.eventId);
          if (event.eventId === eventIds[1]) {
            if (failures > 0)
              checkpointsAtRetry.push(await readCheckpoint(dataSource.manager, 'reactor:probe'));
            if (failures < 2) {
              failures += 1;
              // Transient (the LLM is down): retried in order, never parked.
              throw new RetryLaterError('the LLM is down');
            }
          }
          if (event.eventId === eventIds[4]) throw new StreamDeletedError('erased user');
        },
      },
      { retryMs: 10 },
    );
    const projection = new ProjectionRunner(
      { store, codec, dataSource, feed },
      userStreamStatsProjection,
    );
    const stop = new AbortController();
    const running = Promise.all([reactor.run(stop.signal), projection.run(stop.signal)]);
    for (let i = 0; i < 3; i += 1) positions.push(await append());
    const head = positions.at(-1)!;
    for (
      let tries = 0;
      (await readCheckpoint(dataSource.manager, 'reactor:probe')) < head;
      tries += 1
    ) {
      if (tries > 200) throw new Error('the reactor did not reach the head');
      await sleep(25);
    }
    for (
      let tries = 0;
      (await readCheckpoint(dataSource.manager, 'user_stream_stats')) < head;
      tries += 1
    ) {
      if (tries > 200) throw new Error('the projection did not reach the head');
      await sleep(25);
    }
    stop.abort();
    await running;
    feed.close();

    const [first, failing, , fourth, deleted, last] = eventIds;
    expect(reacted).toEqual([first, failing, failing, failing, fourth, deleted, last]);
    expect(checkpointsAtRetry).toEqual([positions[0], positions[0]]);
    expect(opened).toBe(6);
  });

  it('stores the checkpoint of batches it passed without a reaction at most once a second, and when it stops', async () => {
    const codec = new EventCodec(EVENT_CATALOG);
    const feed = new SharedEventFeed(store, codec);
    const reacted: string[] = [];
    // Handles a type nobody appends here: every batch is passed without a reaction.
    const reactor = new ReactorRunner(
      { store, codec, dataSource, feed },
      {
        name: 'idle',
        handles: ['ActionProposed'],
        react: async (e) => void reacted.push(e.eventId),
      },
    );
    const projection = new ProjectionRunner(
      { store, codec, dataSource, feed },
      userStreamStatsProjection,
    );
    const stop = new AbortController();
    const running = Promise.all([reactor.run(stop.signal), projection.run(stop.signal)]);
    try {
      const started = Date.now();
      let head = 0n;
      for (let i = 0; i < 3; i += 1) head = await append();
      await reached('user_stream_stats', head);
      await reached('reactor:idle', head);
      // The first batch passed arrived after `started`: its checkpoint waited the whole second.
      expect(Date.now() - started).toBeGreaterThanOrEqual(REACTOR_SKIPPED_CHECKPOINT_MS);

      head = await append();
      await reached('user_stream_stats', head);
      stop.abort();
      await running;
      expect(await readCheckpoint(dataSource.manager, 'reactor:idle')).toBe(head);
      expect(reacted).toEqual([]);
    } finally {
      stop.abort();
      await running;
      feed.close();
    }
  });
});
