import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { BENCH_WORKSPACE, planStore, seedStore, type SeedPlan } from '../seed/seed-store';
import { createBenchDatabase, type BenchDatabase } from './bench-database';
import { startEngram, type EngramProcess } from './engram-process';
import type { BenchOptions } from './options';
import { benchToken } from './secrets';

/**
 * The store most scenarios share: seeded once with `options.events` events of `options.users` users
 * (and the large user the export reads), served by one API and one worker process.
 */
export type MainStore = {
  readonly database: BenchDatabase;
  /** Owner connections for the bench's own reads (checkpoints, baselines). */
  readonly pool: Pool;
  readonly plan: SeedPlan;
  readonly seededEvents: number;
  readonly seedSeconds: number;
  /** The first worker (its memory is measured). */
  worker?: EngramProcess;
  /** The workers beyond the first (`--workers`), sharing the partitions with it through leases. */
  otherWorkers: EngramProcess[];
  api?: EngramProcess;
  readonly tokens: Readonly<{ agent: string; auditor: string }>;
};

export async function createMainStore(options: BenchOptions): Promise<MainStore> {
  const database = await createBenchDatabase(options.serverUrl, 'main');
  const plan = planStore(options.events, options.users, options.exportEvents);
  const started = Date.now();
  const seededEvents = await seedStore(database, plan);
  const pool = new Pool({ connectionString: database.ownerUrl, max: 40 });
  // An idle connection dropped by the server must not crash the bench (pg's pools rethrow it).
  pool.on('error', () => undefined);
  return {
    database,
    pool,
    plan,
    seededEvents,
    seedSeconds: (Date.now() - started) / 1000,
    otherWorkers: [],
    tokens: {
      agent: await benchToken(BENCH_WORKSPACE, 'bench-agent', ['agent']),
      auditor: await benchToken(BENCH_WORKSPACE, 'bench-auditor', ['auditor']),
    },
  };
}

export async function startApi(store: MainStore): Promise<EngramProcess> {
  store.api ??= await startEngram('api', store.database);
  return store.api;
}

/** Starts or stops worker processes until exactly `count` run (each ready, not yet caught up). */
export async function runWorkers(store: MainStore, count: number): Promise<void> {
  const running = workersOf(store);
  await Promise.all(running.slice(count).map((worker) => worker.stop()));
  const started = await Promise.all(
    Array.from({ length: Math.max(0, count - running.length) }, () =>
      startEngram('worker', store.database),
    ),
  );
  const workers = [...running.slice(0, count), ...started];
  store.worker = workers[0];
  store.otherWorkers = workers.slice(1);
}

/**
 * Stops every worker, then starts one running only the projections and one running only the process
 * managers (`ENGRAM_WORKER_ROLE`), the latter at the scheduling priority `nice`.
 */
export async function runWorkersByRole(store: MainStore, nice: number): Promise<void> {
  await runWorkers(store, 0);
  const [projections, processManagers] = await Promise.all([
    startEngram('worker', store.database, { ENGRAM_WORKER_ROLE: 'projections' }),
    startEngram('worker', store.database, { ENGRAM_WORKER_ROLE: 'process-managers' }, nice),
  ]);
  store.worker = projections;
  store.otherWorkers = [processManagers];
}

export async function stopWorkers(store: MainStore): Promise<void> {
  await runWorkers(store, 0);
}

export function workersOf(store: MainStore): EngramProcess[] {
  return store.worker ? [store.worker, ...store.otherWorkers] : [];
}

/** The store's Engram processes by name (`api`, `worker1`…), as `countCpu` takes them. */
export function engramPids(store: MainStore): Record<string, number | undefined> {
  return {
    api: store.api?.child.pid,
    ...Object.fromEntries(
      workersOf(store).map((worker, i) => [`worker${i + 1}`, worker.child.pid]),
    ),
  };
}

/**
 * Resolves once every lease is held and each running worker holds at least its share of each role
 * it runs (the role's leases divided by the workers running it, rounded down), with how long that
 * took and what each holds.
 */
export async function waitForBalancedLeases(
  store: MainStore,
  timeoutMs = 60_000,
): Promise<{ seconds: number; held: number[] }> {
  const started = performance.now();
  const workers = workersOf(store);
  for (;;) {
    const { rows } = await store.pool.query<{ holder: string | null; role: string; count: string }>(
      `SELECT CASE WHEN expires_at > now() THEN holder END AS holder,
              CASE WHEN name LIKE 'projection:%' THEN 'projections' ELSE 'process-managers' END AS role,
              count(*) AS count
         FROM worker_leases GROUP BY 1, 2`,
    );
    const instances = await store.pool.query<{ id: string; roles: string[] }>(
      'SELECT id, roles FROM worker_instances',
    );
    // A worker's id is host:pid:random.
    const pidOf = (id: string | null) => id?.split(':')[1];
    const rolesOf = (worker: EngramProcess) =>
      instances.rows.find((row) => pidOf(row.id) === String(worker.child.pid))?.roles ?? [];
    const count = (holds: (row: (typeof rows)[number]) => boolean) =>
      rows.filter(holds).reduce((sum, row) => sum + Number(row.count), 0);
    const total = count(() => true);
    const held = workers.map((worker) =>
      count((row) => pidOf(row.holder) === String(worker.child.pid)),
    );
    const balanced =
      total > 0 &&
      held.reduce((sum, count) => sum + count, 0) === total &&
      [...new Set(rows.map((row) => row.role))].every((role) => {
        const running = workers.filter((worker) => rolesOf(worker).includes(role));
        const share = Math.floor(count((row) => row.role === role) / Math.max(1, running.length));
        return running.every(
          (worker) =>
            count((row) => row.role === role && pidOf(row.holder) === String(worker.child.pid)) >=
            share,
        );
      });
    const seconds = (performance.now() - started) / 1000;
    if (balanced) return { seconds, held };
    if (seconds * 1000 > timeoutMs) {
      throw new Error(`leases not balanced in ${timeoutMs} ms: ${held.join(', ')} of ${total}`);
    }
    await sleep(50);
  }
}

export async function closeMainStore(store: MainStore): Promise<void> {
  await store.api?.stop();
  await stopWorkers(store);
  await store.pool.end();
  await store.database.drop();
}
