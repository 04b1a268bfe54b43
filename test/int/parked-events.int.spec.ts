import { openStoreAndProjector, type StoreAndProjector } from '../support/store-and-projector';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import {
  EVENT_CATALOG,
  operationsStream,
  parkedEventDecider,
  userStream,
  type ParkedEventCommand,
} from '@engram/domain';
import { EventCodec, PostgresEventStore, handleCommand } from '@engram/event-store';
import { ReactorRunner, type Reactor } from '@engram/process-managers';
import {
  PartitionCountMismatchError,
  ProjectionRunner,
  listParked,
  readCheckpoint,
  resetProjection,
  userStreamStatsProjection,
  type AnyProjection,
  type PartitionSlice,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { appendMessage } from '../support/append-message';

const codec = new EventCodec(EVENT_CATALOG);
const AT = '2026-06-10T10:00:00.000Z';

/**
 * Given events one owner's partition cannot apply, then: that owner is parked with its later events
 * waiting, everyone else is applied, and an operator's retry or skip (an event) resumes the owner.
 */
describe('parked events', () => {
  let database: StoreAndProjector['database'];
  let store: PostgresEventStore;
  let projector: DataSource;
  /** Event ids the projection under test cannot apply ("the bug"); cleared to simulate the fix. */
  const poisoned = new Set<string>();
  /** Each test writes in a workspace of its own (the projector role may not truncate the store). */
  let ws = 'w';
  let tests = 0;

  const poisonable: AnyProjection = {
    ...userStreamStatsProjection,
    apply: (event, view) => {
      if (poisoned.has(event.eventId)) throw new Error(`poison: cannot apply ${event.eventId}`);
      return userStreamStatsProjection.apply(event, view);
    },
  };
  const runner = (slice?: PartitionSlice) =>
    new ProjectionRunner({ store, codec, dataSource: projector }, poisonable, {
      retryMs: 5,
      attemptsBeforeParking: 2,
      ...(slice ? { slice } : {}),
    });
  const message = (userId: string) =>
    appendMessage(store, { workspaceId: ws, userId, occurredAt: AT });
  const decide = (command: ParkedEventCommand) =>
    handleCommand({ store, codec }, operationsStream(ws), parkedEventDecider, command, {
      metadata: {
        workspaceId: ws,
        userId: 'ops',
        causationId: 'c',
        correlationId: 'c',
        occurredAt: AT,
      },
    });
  async function counts(): Promise<Record<string, number>> {
    const rows = await projector.query<{ user_id: string; event_count: number }[]>(
      'SELECT user_id, event_count FROM user_stream_stats WHERE workspace_id = $1 ORDER BY user_id',
      [ws],
    );
    return Object.fromEntries(rows.map((row) => [row.user_id, row.event_count]));
  }

  async function until(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 300 && !(await check()); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await check()).toBe(true);
  }

  /** As an operator would, on an empty database (the projector role may only record the first). */
  async function setPartitionCount(count: number): Promise<void> {
    const owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
    try {
      await owner.query(`UPDATE engram_settings SET value = $1 WHERE key = 'partitions'`, [
        String(count),
      ]);
    } finally {
      await owner.end();
    }
  }

  let opened: StoreAndProjector;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
    ({ database, store, projector } = opened);
  });
  afterAll(() => opened.close());

  beforeEach(async () => {
    poisoned.clear();
    tests += 1;
    ws = `w${tests}`;
    await resetProjection(projector, userStreamStatsProjection);
  });

  it('parks the poison event with its owner; the others go on; a retry after the fix resumes her', async () => {
    await message('alice');
    const poison = await message('mallory');
    poisoned.add(poison.messageId);
    await message('bob');
    await message('mallory');
    const last = await message('alice');

    expect(await runner().catchUp()).toBe(last.position);
    expect(await counts()).toEqual({ alice: 2, bob: 1 });
    const [parked, ...more] = await listParked(projector.manager);
    expect(more).toEqual([]);
    expect(parked).toMatchObject({
      consumer: 'user_stream_stats',
      partition: 'user_stream_stats',
      workspaceId: ws,
      userId: 'mallory',
      position: poison.position,
      eventId: poison.messageId,
      eventType: 'MessageRecorded',
      attempts: 2,
    });
    expect(parked!.error).toContain('poison');

    poisoned.clear();
    await decide({
      type: 'RetryParkedEvent',
      ref: {
        consumer: 'user_stream_stats',
        workspaceId: ws,
        userId: 'mallory',
        eventId: poison.messageId,
      },
      requestedBy: 'ops',
    });
    await runner().catchUp();
    expect(await counts()).toEqual({ alice: 2, bob: 1, mallory: 2 });
    expect(await listParked(projector.manager)).toEqual([]);
  });

  it('a live partition tries a parked event again on time with no later event, a garbage collection meanwhile', async () => {
    // Node 20's AbortSignal.any holds an AbortSignal.timeout weakly: collected before it fired, the
    // try waited for the next event (abortedOrAfter). A full collection on demand, as --expose-gc.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const live = new ProjectionRunner({ store, codec, dataSource: projector }, poisonable, {
      retryMs: 300,
      attemptsBeforeParking: 3,
    });
    const poison = await message('mallory');
    poisoned.add(poison.messageId);
    const stop = new AbortController();
    const running = live.run(stop.signal);
    try {
      await until(async () => (await listParked(projector.manager)).length === 1);
      poisoned.clear(); // the cause heals before the automatic try
      await new Promise((resolve) => setTimeout(resolve, 20));
      collect();
      await until(async () => (await counts()).mallory === 1);
      expect(await listParked(projector.manager)).toEqual([]);
    } finally {
      stop.abort();
      await running;
    }
  });

  it('a retry that still fails parks again, one more try; a skip passes over it and a rebuild gives the same rows', async () => {
    const poison = await message('eve');
    poisoned.add(poison.messageId);
    await message('eve');
    await message('bob');
    await runner().catchUp();
    const ref = {
      consumer: 'user_stream_stats',
      workspaceId: ws,
      userId: 'eve',
      eventId: poison.messageId,
    };
    await decide({ type: 'RetryParkedEvent', ref, requestedBy: 'ops' });
    await runner().catchUp();
    expect(await listParked(projector.manager)).toMatchObject([{ userId: 'eve', attempts: 3 }]);

    await decide({ type: 'SkipParkedEvent', ref, requestedBy: 'ops', reason: 'unrecoverable' });
    await runner().catchUp();
    const skipped = await counts();
    expect(skipped).toEqual({ bob: 1, eve: 1 });
    expect(await listParked(projector.manager)).toEqual([]);

    await resetProjection(projector, userStreamStatsProjection);
    await runner().catchUp();
    expect(await counts()).toEqual(skipped);
    expect(await listParked(projector.manager)).toEqual([]);
  });

  it('transient failures are retried, never parked', async () => {
    await message('alice');
    let failures = 0;
    const flaky: AnyProjection = {
      ...userStreamStatsProjection,
      apply: () => {
        failures += 1;
        throw Object.assign(new Error('connection lost'), { code: '08006' });
      },
    };
    const run = new ProjectionRunner({ store, codec, dataSource: projector }, flaky, {
      retryMs: 5,
      attemptsBeforeParking: 1,
    }).catchUp();
    await expect(run).rejects.toThrow('connection lost');
    expect(failures).toBe(1);
    expect(await listParked(projector.manager)).toEqual([]);
  });

  it('an erasure of a parked owner releases her', async () => {
    const poison = await message('mallory');
    poisoned.add(poison.messageId);
    await runner().catchUp();
    expect(await listParked(projector.manager)).toHaveLength(1);
    await store.appendToStream(
      userStream(ws, 'mallory', 'erasure', 'record'),
      [
        await codec.encode({
          eventId: '00000000-0000-4000-8000-0000000000e1',
          event: { type: 'UserErased', data: { requestedBy: 'auditor' } },
          metadata: {
            workspaceId: ws,
            userId: 'mallory',
            causationId: 'c',
            correlationId: 'c',
            occurredAt: AT,
          },
        }),
      ],
      { expectedRevision: 'no_stream' },
    );
    await runner().catchUp();
    expect(await listParked(projector.manager)).toEqual([]);
    expect(await counts()).toEqual({});
  });

  it('partitions split the owners between them, each with its own checkpoint, and together apply everything', async () => {
    const users = Array.from({ length: 12 }, (_, i) => `user-${i}`);
    for (const user of users) await message(user);
    const head = await store.headPosition();
    const halves = [runner({ index: 0, count: 2 }), runner({ index: 1, count: 2 })];
    // The first runner of this database recorded 1 partition: a runner cut in 2 would apply twice.
    await expect(halves[0]!.catchUp()).rejects.toThrow(PartitionCountMismatchError);
    await setPartitionCount(2);
    await halves[0]!.catchUp();
    const first = Object.keys(await counts());
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(users.length);
    await halves[1]!.catchUp();
    expect(Object.keys(await counts()).sort()).toEqual([...users].sort());
    expect(await readCheckpoint(projector.manager, 'user_stream_stats#0/2')).toBe(head);
    expect(await readCheckpoint(projector.manager, 'user_stream_stats#1/2')).toBe(head);
    await setPartitionCount(1);
  });

  it('a process manager parks the owner whose reaction keeps failing, and resumes her on retry', async () => {
    const reacted: string[] = [];
    const broken = new Set<string>();
    const reactor: Reactor = {
      name: 'recorder',
      handles: ['MessageRecorded'],
      react: (event) => {
        if (event.metadata.workspaceId !== ws) return Promise.resolve();
        if (broken.has(event.eventId)) return Promise.reject(new Error('bug in the reaction'));
        reacted.push(event.metadata.userId);
        return Promise.resolve();
      },
    };
    const reactorRunner = () =>
      new ReactorRunner({ store, codec, dataSource: projector }, reactor, {
        retryMs: 5,
        attemptsBeforeParking: 2,
      });
    await message('alice');
    const poison = await message('mallory');
    broken.add(poison.messageId);
    await message('mallory');
    await message('bob');
    await reactorRunner().catchUp();
    expect(reacted).toEqual(['alice', 'bob']);
    expect(await listParked(projector.manager)).toMatchObject([
      { consumer: 'reactor:recorder', userId: 'mallory', eventId: poison.messageId },
    ]);

    broken.clear();
    await decide({
      type: 'RetryParkedEvent',
      ref: {
        consumer: 'reactor:recorder',
        workspaceId: ws,
        userId: 'mallory',
        eventId: poison.messageId,
      },
      requestedBy: 'ops',
    });
    await reactorRunner().catchUp();
    expect(reacted).toEqual(['alice', 'bob', 'mallory', 'mallory']);
    expect(await listParked(projector.manager)).toEqual([]);
  });
});
