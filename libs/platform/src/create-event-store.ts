import { PostgresEventStore, type EventStore } from '@engram/event-store';
import type { Runtime } from './prepare-runtime';

/** EventStoreDB when EVENTSTORE_URL is set, otherwise the PostgreSQL store in the read-model database. */
export function createEventStore(runtime: Runtime, connectionString: string, name: string): EventStore {
  if (runtime.config.eventStoreUrl) {
    // Loaded lazily: the gRPC client is only needed when EventStoreDB is configured.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { EventStoreDbEventStore } = require('@engram/event-store/eventstoredb') as typeof import('@engram/event-store/eventstoredb');
    return EventStoreDbEventStore.fromConnectionString(runtime.config.eventStoreUrl);
  }
  return new PostgresEventStore({ connectionString, applicationName: name });
}
