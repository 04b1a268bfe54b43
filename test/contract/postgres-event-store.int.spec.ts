import { PostgresEventStore } from '@engram/event-store';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { eventStoreContract } from './event-store.contract';

describe('PostgresEventStore (contract)', () => {
  let database: TestDatabase;
  eventStoreContract({
    create: async () => {
      database = await createTestDatabase();
      return new PostgresEventStore({ connectionString: database.appUrl, pollMs: 200 });
    },
    dispose: () => database.drop(),
  });
});
