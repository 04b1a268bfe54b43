import { PostgresEventStore, type EventStore } from '@engram/event-store';
import { EventStoreDbEventStore } from '@engram/event-store/eventstoredb';
import { ObservedEventStore, type AppendObserver } from '@engram/observability';
import type { Runtime } from './prepare-runtime';

/**
 * EventStoreDB when EVENTSTORE_URL is set, otherwise the PostgreSQL store in the read-model database;
 * with an observer (the metrics), every append is reported to it.
 */
export function createEventStore(
  runtime: Runtime,
  connectionString: string,
  name: string,
  observer?: AppendObserver,
): EventStore {
  const store = runtime.config.eventStoreUrl
    ? EventStoreDbEventStore.fromConnectionString(runtime.config.eventStoreUrl, {
        onForeignEvent: () => observer?.foreignEventSkipped?.(),
      })
    : new PostgresEventStore({ connectionString, applicationName: name });
  return observer ? new ObservedEventStore(store, observer) : store;
}
