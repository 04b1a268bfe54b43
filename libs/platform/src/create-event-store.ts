import { PostgresEventStore, type EventStore } from '@engram/event-store';
import { EventStoreDbEventStore } from '@engram/event-store/eventstoredb';
import type { Runtime } from './prepare-runtime';

/** EventStoreDB when EVENTSTORE_URL is set, otherwise the PostgreSQL store in the read-model database. */
export function createEventStore(
  runtime: Runtime,
  connectionString: string,
  name: string,
): EventStore {
  if (runtime.config.eventStoreUrl) {
    return EventStoreDbEventStore.fromConnectionString(runtime.config.eventStoreUrl);
  }
  return new PostgresEventStore({ connectionString, applicationName: name });
}
