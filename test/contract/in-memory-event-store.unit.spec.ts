import { InMemoryEventStore } from '@engram/event-store';
import { eventStoreContract } from './event-store.contract';

// The same suite as the PostgreSQL adapter's, in the unit project: no database.
describe('InMemoryEventStore (contract)', () => {
  eventStoreContract({
    create: () => Promise.resolve(new InMemoryEventStore()),
    dispose: () => Promise.resolve(),
  });
});
