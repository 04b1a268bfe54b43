import { setTimeout as sleep } from 'node:timers/promises';
import { createDataSource } from '@engram/database';
import { LeaseCoordinator, type Partition } from '@engram/platform';
import { READ_MODEL_ENTITIES } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { eventually } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const TTL_SECONDS = 0.6;

/** Partitions that record, per partition, how many workers run it at the same moment. */
function observedPartitions(count: number) {
  const runningNow = new Map<string, number>();
  let overlaps = 0;
  const partitions: Partition[] = Array.from({ length: count }, (_, index) => {
    const name = `test:${index}`;
    return {
      name,
      role: 'test',
      run: async (signal) => {
        const now = (runningNow.get(name) ?? 0) + 1;
        runningNow.set(name, now);
        if (now > 1) overlaps += 1;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        await sleep(20); // finishing the current batch
        runningNow.set(name, (runningNow.get(name) ?? 1) - 1);
      },
    };
  });
  return { partitions, overlaps: () => overlaps, runningNow };
}

/** A partition that runs until it is stopped. */
function untilAborted(name: string) {
  return {
    name,
    run: (signal: AbortSignal) =>
      new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
  };
}

/** The four owner slices of a consumer (`name#0/4`…), as the worker names them. */
function ownerSlices(name: string, role: string): Partition[] {
  return [0, 1, 2, 3].map((index) => ({ ...untilAborted(`${name}#${index}/4`), role }));
}

describe('leases share the background partitions between workers', () => {
  let database: TestDatabase;
  let dataSources: DataSource[];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSources = await Promise.all(
      [1, 2, 3].map(() =>
        createDataSource(database.projectorUrl, READ_MODEL_ENTITIES, 2, 'lease-test').initialize(),
      ),
    );
  });

  afterAll(async () => {
    await Promise.all(dataSources.map((dataSource) => dataSource.destroy()));
    await database.drop();
  });

  it('one worker takes every partition; a second one takes its fair share; never both run one', async () => {
    const { partitions, overlaps, runningNow } = observedPartitions(7);
    const stopA = new AbortController();
    const stopB = new AbortController();
    const a = new LeaseCoordinator(dataSources[0]!, partitions, {
      workerId: 'worker-a',
      onError: (e) => process.stdout.write(String(e) + '\n'),
      ttlSeconds: TTL_SECONDS,
    });
    const b = new LeaseCoordinator(dataSources[1]!, partitions, {
      workerId: 'worker-b',
      ttlSeconds: TTL_SECONDS,
    });
    const runningA = a.run(stopA.signal);
    await eventually(
      () => Promise.resolve(a.held.length),
      (held) => held === 7,
    );
    const runningB = b.run(stopB.signal);
    await eventually(
      () => Promise.resolve([a.held.length, b.held.length]),
      ([heldA, heldB]) => heldA === 4 && heldB === 3,
    );
    expect(a.held.length + b.held.length).toBe(7);
    expect(a.held.filter((name) => b.held.includes(name))).toEqual([]);

    // A stops cleanly: it gives its partitions back and B takes them all.
    stopA.abort();
    await runningA;
    await eventually(
      () => Promise.resolve(b.held.length),
      (held) => held === 7,
    );
    expect(b.held).toHaveLength(7);
    stopB.abort();
    await runningB;
    expect(overlaps()).toBe(0);
    expect([...runningNow.values()].every((count) => count === 0)).toBe(true);
  });

  it('a newcomer beside a busy worker gets its share within a few balances, whole partition indexes', async () => {
    // Long leases: the newcomer must not wait for a third of one (10 s) before the holder gives back.
    const ttlSeconds = 30;
    const partitions = [
      ...ownerSlices('projection:memories', 'projections'),
      ...ownerSlices('projection:sessions', 'projections'),
      ...ownerSlices('reactor:summary', 'process-managers'),
    ];
    const busy = new LeaseCoordinator(dataSources[0]!, partitions, {
      workerId: 'worker-busy',
      ttlSeconds,
    });
    const newcomer = new LeaseCoordinator(dataSources[1]!, partitions, {
      workerId: 'worker-new',
      ttlSeconds,
    });
    const stop = new AbortController();
    const runningBusy = busy.run(stop.signal);
    await eventually(
      () => Promise.resolve(busy.held.length),
      (held) => held === 12,
    );
    const runningNew = newcomer.run(stop.signal);
    const [heldBusy, heldNew] = await eventually(
      () => Promise.resolve([busy.held, newcomer.held]),
      ([a, b]) => a.length === 6 && b.length === 6,
      8_000,
    );
    expect([heldBusy.length, heldNew.length]).toEqual([6, 6]);
    // Each holds every consumer of two of the four owner slices, so each decodes half the events.
    const indexes = (held: readonly string[]) => new Set(held.map((name) => name.slice(-3)));
    expect([...indexes(heldBusy)].sort()).toEqual(['0/4', '1/4']);
    expect([...indexes(heldNew)].sort()).toEqual(['2/4', '3/4']);
    stop.abort();
    await Promise.all([runningBusy, runningNew]);
  });

  it('each role is shared among the workers that run it: a worker of one role leaves the other to others', async () => {
    const projections = [
      ...ownerSlices('projection:memories', 'projections'),
      ...ownerSlices('projection:sessions', 'projections'),
    ];
    const processManagers = [
      ...ownerSlices('reactor:summary', 'process-managers'),
      { ...untilAborted('job:expiry'), role: 'process-managers' },
    ];
    const every = [...projections, ...processManagers];
    const names = (partitions: readonly Partition[]) => partitions.map(({ name }) => name).sort();
    const options = (workerId: string) => ({ workerId, ttlSeconds: TTL_SECONDS });
    const onlyProjections = new LeaseCoordinator(
      dataSources[0]!,
      projections,
      options('worker-projections'),
    );
    const onlyProcessManagers = new LeaseCoordinator(
      dataSources[1]!,
      processManagers,
      options('worker-process-managers'),
    );
    const both = new LeaseCoordinator(dataSources[2]!, every, options('worker-all'));
    const stop = new AbortController();
    const stopBoth = new AbortController();
    const running = [onlyProjections.run(stop.signal), onlyProcessManagers.run(stop.signal)];
    // Two live workers, but each runs a role alone: each takes all of it (a share of every
    // partition / 2 would leave half of each role to nobody).
    await eventually(
      () => Promise.resolve([onlyProjections.held, onlyProcessManagers.held] as const),
      ([p, m]) => p.length === 8 && m.length === 5,
    );
    expect(onlyProjections.held).toEqual(names(projections));
    expect(onlyProcessManagers.held).toEqual(names(processManagers));

    // A worker running both roles takes half of each, from both.
    const runningBoth = both.run(stopBoth.signal);
    const [p, m, b] = await eventually(
      () => Promise.resolve([onlyProjections.held, onlyProcessManagers.held, both.held] as const),
      ([p, m, b]) => p.length === 4 && m.length === 3 && b.length === 6,
    );
    expect([...p, ...m, ...b].sort()).toEqual(names(every));
    expect(b.filter((name) => name.startsWith('projection:'))).toHaveLength(4);

    // It stops: each role's partitions go back to the worker left running that role.
    stopBoth.abort();
    await runningBoth;
    await eventually(
      () => Promise.resolve([onlyProjections.held, onlyProcessManagers.held] as const),
      ([p, m]) => p.length === 8 && m.length === 5,
    );
    stop.abort();
    await Promise.all(running);
  });

  it('a role no live worker runs is reported once, after a lease period', async () => {
    const unrun: string[] = [];
    const alone = new LeaseCoordinator(
      dataSources[0]!,
      ownerSlices('projection:cards', 'projections'),
      {
        workerId: 'worker-alone',
        ttlSeconds: TTL_SECONDS,
        everyRole: ['projections', 'process-managers'],
        onUnrunRole: (role) => unrun.push(role),
      },
    );
    const stop = new AbortController();
    const running = alone.run(stop.signal);
    await eventually(
      () => Promise.resolve(unrun),
      (roles) => roles.length > 0,
    );
    await sleep(TTL_SECONDS * 1000);
    expect(unrun).toEqual(['process-managers']);
    stop.abort();
    await running;
  });

  it('a worker that stops renewing (it died) is replaced within the lease period', async () => {
    const { partitions, overlaps } = observedPartitions(5);
    const dying = new LeaseCoordinator(dataSources[0]!, partitions, {
      workerId: 'worker-dying',
      ttlSeconds: TTL_SECONDS,
    });
    const stopDying = new AbortController();
    const runningDying = dying.run(stopDying.signal);
    await eventually(
      () => Promise.resolve(dying.held.length),
      (held) => held === 5,
    );
    // Its connection goes away without releasing anything, as with SIGKILL.
    const pool = dataSources[2]!;
    const survivor = new LeaseCoordinator(pool, partitions, {
      workerId: 'worker-survivor',
      ttlSeconds: TTL_SECONDS,
    });
    await dataSources[0]!.destroy();
    const stopSurvivor = new AbortController();
    const diedAt = Date.now();
    const runningSurvivor = survivor.run(stopSurvivor.signal);
    await eventually(
      () => Promise.resolve(survivor.held.length),
      (held) => held === 5,
    );
    const failoverMs = Date.now() - diedAt;
    // The dying worker, unable to renew, stopped its partitions before the survivor took them.
    expect(dying.held).toEqual([]);
    expect(overlaps()).toBe(0);
    process.stdout.write(`failover after ${failoverMs} ms with ${TTL_SECONDS} s leases\n`);
    stopSurvivor.abort();
    stopDying.abort();
    await Promise.all([runningSurvivor, runningDying]);
    dataSources[0] = await createDataSource(
      database.projectorUrl,
      READ_MODEL_ENTITIES,
      2,
      'lease-test',
    ).initialize();
  });
});
