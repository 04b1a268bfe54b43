import { KeyStore, memoryIdDigests } from '@engram/crypto';
import { createDataSource } from '@engram/database';
import { EVENT_CATALOG, type Clock } from '@engram/domain';
import {
  EventCodec,
  PostgresEventStore,
  createResilientPool,
  type EventStore,
} from '@engram/event-store';
import { createLlm } from '@engram/llm';
import { readModelPolicies, type ProcessManagerDependencies } from '@engram/process-managers';
import { PROJECTIONS, READ_MODEL_ENTITIES, catchUpAllPartitions } from '@engram/projections';
import { DateTime } from 'luxon';
import { createTestDatabase, type TestDatabase } from './test-database';
import { TEST_MASTER_KEY } from './test-runtime';

export type WorkerDeps = ProcessManagerDependencies & { close: () => Promise<void> };

/**
 * What a background worker has (store, codec, projector data source, offline LLM, policies, the data
 * keys memory ids are derived from), on a test database.
 */
export async function buildWorkerDeps(
  database: TestDatabase,
  clock: Clock,
  store?: EventStore,
): Promise<WorkerDeps> {
  const ownStore = new PostgresEventStore({ connectionString: database.appUrl, pollMs: 100 });
  const dataSource = await createDataSource(
    database.projectorUrl,
    READ_MODEL_ENTITIES,
    4,
  ).initialize();
  const keyPool = createResilientPool({ connectionString: database.appUrl, max: 2 });
  return {
    store: store ?? ownStore,
    codec: new EventCodec(EVENT_CATALOG),
    dataSource,
    llm: createLlm({}),
    clock,
    policies: readModelPolicies(dataSource),
    memoryIdDigests: memoryIdDigests(new KeyStore(keyPool, TEST_MASTER_KEY)),
    close: async () => {
      await ownStore.close();
      await dataSource.destroy();
      await keyPool.end();
    },
  };
}

/** Applies every projection up to the head of the store. */
export async function catchUpProjections(deps: WorkerDeps): Promise<void> {
  for (const projection of PROJECTIONS) {
    await catchUpAllPartitions(
      { store: deps.store, codec: deps.codec, dataSource: deps.dataSource },
      projection,
    );
  }
}

/** A worker's dependencies on a database of the describe's own (opened before, dropped after). */
export function workerOnTestDatabase(clock: Clock = { now: () => DateTime.utc() }): WorkerDeps {
  const deps = {} as WorkerDeps;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    Object.assign(deps, await buildWorkerDeps(database, clock));
  });
  afterAll(async () => {
    await deps.close();
    await database?.drop();
  });
  return deps;
}
