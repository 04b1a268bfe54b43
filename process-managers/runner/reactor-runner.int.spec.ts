import {
  openStoreAndProjector,
  type StoreAndProjector,
} from '../../test/support/store-and-projector';
import { randomUUID } from 'node:crypto';
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
  CommittedCheckpoints,
  ProjectionRunner,
  SharedEventFeed,
  ensureCheckpoint,
  readCheckpoint,
  userStreamStatsProjection,
  writeCheckpoint,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { appendMessage } from '../../test/support/append-message';
import { ProjectionsFirst } from './projections-first';
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

  it('tells once of a reaction under way too long (the checkpoint stands before it), and goes on when it ends', async () => {
    const codec = new EventCodec(EVENT_CATALOG);
    const feed = new SharedEventFeed(store, codec);
    const name = `slow-${randomUUID()}`;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const stuck = await append();
    const told: Array<{
      reactor: string;
      position: bigint;
      type: string;
      ms: number;
      open: number;
    }> = [];
    const reactor = new ReactorRunner(
      {
        store,
        codec,
        dataSource,
        feed,
        onSlowReaction: (partition, slow) =>
          told.push({
            reactor: partition,
            position: slow.event.globalPosition,
            type: slow.event.type,
            ms: slow.ms,
            open: slow.open,
          }),
      },
      {
        name,
        handles: ['MessageRecorded'],
        react: async (event: DecodedEvent) => {
          if (event.globalPosition === stuck) await released;
        },
      },
      { slowReactionMs: 100, ownersInFlight: 8 },
    );
    await ensureCheckpoint(dataSource.manager, `reactor:${name}`);
    await writeCheckpoint(dataSource.manager, `reactor:${name}`, stuck - 1n);
    const stop = new AbortController();
    const running = reactor.run(stop.signal);
    const after = await append();
    for (let tries = 0; told.length === 0; tries += 1) {
      if (tries > 200) throw new Error('the slow reaction was not told');
      await sleep(25);
    }
    await sleep(300); // told once, not at every look
    expect(told).toEqual([
      expect.objectContaining({
        reactor: `reactor:${name}`,
        position: stuck,
        type: 'MessageRecorded',
      }),
    ]);
    expect(told[0]!.ms).toBeGreaterThanOrEqual(100);
    expect(await readCheckpoint(dataSource.manager, `reactor:${name}`)).toBe(stuck - 1n);
    release();
    await reached(`reactor:${name}`, after);
    stop.abort();
    await running;
    feed.close();
    expect(told).toHaveLength(1);
  });

  it('waits the shortest backoff again once it got past a failed event: failures on one day do not slow every later one', async () => {
    const codec = new EventCodec(EVENT_CATALOG);
    const feed = new SharedEventFeed(store, codec);
    const start = await store.headPosition();
    const tried = new Set<string>();
    const waits: number[] = [];
    let failedAt = 0;
    const reactor = new ReactorRunner(
      {
        store,
        codec,
        dataSource,
        feed,
        // The wait between a failure and the next try, as the runner took it.
        onError: () => (failedAt = Date.now()),
      },
      {
        name: 'first-try-fails',
        handles: ['MessageRecorded'],
        react: async (event: DecodedEvent) => {
          if (event.globalPosition <= start) return;
          if (!tried.has(event.eventId)) {
            tried.add(event.eventId);
            throw new RetryLaterError('the LLM timed out');
          }
          waits.push(Date.now() - failedAt);
        },
      },
      // Counted for the worker's life, the eighth failure would wait 300 ms × 2⁷ = 38 s.
      { retryMs: 300, maxRetryMs: 60_000 },
    );
    const stop = new AbortController();
    const running = reactor.run(stop.signal);
    try {
      let head = 0n;
      for (let i = 0; i < 8; i += 1) {
        head = await append();
        // One failure at a time: each event's first try fails after the previous one succeeded.
        for (let tries = 0; waits.length < i + 1; tries += 1) {
          if (tries > 400) throw new Error(`event ${i} was not reacted to again`);
          await sleep(25);
        }
      }
      await reached('reactor:first-try-fails', head);
      expect(waits).toHaveLength(8);
      // Each retry came after the first backoff step (300 ms), never after a doubled one (600 ms).
      for (const wait of waits) {
        expect(wait).toBeGreaterThanOrEqual(300);
        expect(wait).toBeLessThan(600);
      }
    } finally {
      stop.abort();
      await running;
      feed.close();
    }
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

  describe('the projections of its worker first', () => {
    const codec = new EventCodec(EVENT_CATALOG);

    /**
     * A reactor whose runner shares a feed with a projection partition `slow` (started at the
     * head, then told to commit by the test), noting how far `slow` had committed at each reaction.
     */
    async function beside(projectionsFirstMs: number, nobodyWaits?: () => boolean) {
      const feed = new SharedEventFeed(store, codec);
      const committed = new CommittedCheckpoints();
      const start = await store.headPosition();
      committed.started('slow', start);
      const seen: { position: bigint; slowAt: bigint | undefined }[] = [];
      const runner = new ReactorRunner(
        {
          store,
          codec,
          dataSource,
          feed,
          projectionsFirst: new ProjectionsFirst(committed, feed, projectionsFirstMs, nobodyWaits),
        },
        {
          name: `first-${randomUUID()}`,
          handles: ['MessageRecorded'],
          react: async (event: DecodedEvent) => {
            // Its checkpoint starts at 0: what earlier tests appended is passed.
            if (event.globalPosition <= start) return;
            seen.push({ position: event.globalPosition, slowAt: committed.positionOf('slow') });
          },
        },
      );
      const stop = new AbortController();
      const running = runner.run(stop.signal);
      const close = async () => {
        stop.abort();
        await running;
        feed.close();
      };
      return { committed, seen, runner, close };
    }

    it('reacts once the projections have applied what the feed read', async () => {
      const { committed, seen, runner, close } = await beside(60_000);
      try {
        const first = await append();
        const head = await append();
        await sleep(300);
        // The reaction waits for `slow`, which has applied nothing yet.
        expect(seen).toEqual([]);
        committed.committed('slow', head, true);
        await reached(runner.name, head);
        expect(seen.map((s) => s.position)).toEqual([first, head]);
        expect(seen.every((s) => s.slowAt === head)).toBe(true);
      } finally {
        await close();
      }
    });

    it('does not wait while nobody else writes (no owner waits to read back)', async () => {
      let nobody = true;
      const { committed, seen, runner, close } = await beside(60_000, () => nobody);
      try {
        const first = await append();
        await reached(runner.name, first);
        expect(seen).toEqual([{ position: first, slowAt: committed.positionOf('slow') }]);
        expect(committed.positionOf('slow')!).toBeLessThan(first);
        nobody = false;
        const next = await append();
        await sleep(200);
        expect(seen).toHaveLength(1); // waits for `slow` again
        committed.committed('slow', next, true);
        await reached(runner.name, next);
      } finally {
        await close();
      }
    });

    it('reacts anyway after its bound when a projection stays behind, or once it stops here', async () => {
      const { committed, seen, runner, close } = await beside(50);
      try {
        const first = await append();
        await reached(runner.name, first);
        expect(seen).toEqual([{ position: first, slowAt: committed.positionOf('slow') }]);
        expect(committed.positionOf('slow')!).toBeLessThan(first);
      } finally {
        await close();
      }
      const held = await beside(60_000);
      try {
        const next = await append();
        await sleep(100);
        expect(held.seen).toEqual([]);
        held.committed.stopped('slow');
        await reached(held.runner.name, next);
        expect(held.seen.map((s) => s.position)).toEqual([next]);
      } finally {
        await held.close();
      }
    });
  });

  describe('owners reacted to at once', () => {
    const codec = new EventCodec(EVENT_CATALOG);

    /** a1 b1 a2 c1 b2, in a workspace of their own: their labels by event id, and positions. */
    async function lines(): Promise<{ label: Map<string, string>; at: Map<string, bigint> }> {
      const workspaceId = `lines-${randomUUID()}`;
      const label = new Map<string, string>();
      const at = new Map<string, bigint>();
      for (const name of ['a1', 'b1', 'a2', 'c1', 'b2']) {
        const occurredAt = '2026-06-08T16:40:00.000Z';
        const { messageId, position } = await appendMessage(store, {
          workspaceId,
          userId: name[0]!,
          occurredAt,
        });
        label.set(messageId, name);
        at.set(name, position);
      }
      return { label, at };
    }

    it("one owner's slow reaction holds none of the others; each owner's events stay in order", async () => {
      const { label } = await lines();
      const started: string[] = [];
      const finished: string[] = [];
      let b2Done!: () => void;
      const b2 = new Promise<void>((resolve) => (b2Done = resolve));
      const runner = new ReactorRunner(
        { store, codec, dataSource },
        {
          name: `lines-${randomUUID()}`,
          handles: ['MessageRecorded'],
          react: async (event: DecodedEvent) => {
            const name = label.get(event.eventId);
            if (!name) return;
            started.push(name);
            // a1 waits (for the LLM, say) until b's second message is reacted to.
            if (name === 'a1') {
              const waited = await Promise.race([b2.then(() => true), sleep(5_000, false)]);
              if (!waited) throw new Error('b waited for a');
            }
            if (name === 'b2') b2Done();
            finished.push(name);
          },
        },
        { ownersInFlight: 8 },
      );
      await runner.catchUp();
      expect(finished.indexOf('b2')).toBeLessThan(finished.indexOf('a1'));
      const of = (owner: string) => finished.filter((name) => name.startsWith(owner));
      expect([of('a'), of('b'), of('c')]).toEqual([['a1', 'a2'], ['b1', 'b2'], ['c1']]);
      expect(started.indexOf('a2')).toBeGreaterThan(finished.indexOf('a1'));
      expect(await readCheckpoint(dataSource.manager, runner.name)).toBe(
        await store.headPosition(),
      );
    });

    it('after a transient failure the checkpoint stops before the earliest event left undone; the next run reacts from there', async () => {
      const label = new Map<string, string>();
      const succeeded = new Set<string>();
      let failures = 0;
      const runner = () =>
        new ReactorRunner(
          { store, codec, dataSource },
          {
            name: 'lines-retry',
            handles: ['MessageRecorded'],
            react: async (event: DecodedEvent) => {
              const name = label.get(event.eventId);
              if (!name) return;
              if (name === 'c1' && failures === 0) {
                failures += 1;
                throw new RetryLaterError('the LLM is down');
              }
              succeeded.add(name);
            },
          },
          { ownersInFlight: 8 },
        );
      // Past what earlier tests appended: their owners' lines would stop before c1 too.
      await runner().catchUp();
      const appended = await lines();
      appended.label.forEach((name, id) => label.set(id, name));
      const at = appended.at;
      await expect(runner().catchUp()).rejects.toThrow('the LLM is down');
      // a2 is the last event before c1: the checkpoint does not pass c1, whatever b's line did.
      expect(await readCheckpoint(dataSource.manager, 'reactor:lines-retry')).toBe(at.get('a2'));
      expect(succeeded.has('c1')).toBe(false);
      await runner().catchUp();
      expect([...succeeded].sort()).toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
      expect(await readCheckpoint(dataSource.manager, 'reactor:lines-retry')).toBe(
        await store.headPosition(),
      );
    });
  });
});
