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
  worker?: EngramProcess;
  api?: EngramProcess;
  readonly tokens: Readonly<{ agent: string; auditor: string }>;
};

export async function createMainStore(options: BenchOptions): Promise<MainStore> {
  const database = await createBenchDatabase(options.serverUrl, 'main');
  const plan = planStore(options.events, options.users, options.exportEvents);
  const started = Date.now();
  const seededEvents = await seedStore(database, plan);
  return {
    database,
    pool: new Pool({ connectionString: database.ownerUrl, max: 40 }),
    plan,
    seededEvents,
    seedSeconds: (Date.now() - started) / 1000,
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

export async function closeMainStore(store: MainStore): Promise<void> {
  await store.api?.stop();
  await store.worker?.stop();
  await store.pool.end();
  await store.database.drop();
}
