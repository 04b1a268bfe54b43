import { createDataSource } from '@engram/database';
import { PostgresEventStore } from '@engram/event-store';
import { READ_MODEL_ENTITIES } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from './test-database';

export type StoreAndProjector = Readonly<{
  database: TestDatabase;
  /** Connected as the API role (which may append). */
  store: PostgresEventStore;
  /** Connected as the projector role: read models and checkpoints. */
  projector: DataSource;
  close: () => Promise<void>;
}>;

/** What runner tests need: a fresh database, its event store, and the workers' data source. */
export async function openStoreAndProjector(): Promise<StoreAndProjector> {
  const database = await createTestDatabase();
  const store = new PostgresEventStore({ connectionString: database.appUrl, pollMs: 100 });
  const projector = await createDataSource(
    database.projectorUrl,
    READ_MODEL_ENTITIES,
    4,
  ).initialize();
  return {
    database,
    store,
    projector,
    close: async () => {
      await store.close();
      await projector.destroy();
      await database.drop();
    },
  };
}
