import { EventStoreDbEventStore } from '@engram/event-store/eventstoredb';
import { eventStoreContract } from './event-store.contract';

const url = process.env.EVENTSTORE_URL;
const reason = 'EVENTSTORE_URL is not set (no EventStoreDB server on this machine)';
if (!url) console.warn(`EventStoreDB contract suite skipped: ${reason}`);

// Runs only against a real server: EVENTSTORE_URL=esdb://localhost:2113?tls=false npm test
(url ? describe : describe.skip)(
  `EventStoreDbEventStore (contract)${url ? '' : ` — skipped: ${reason}`}`,
  () => {
    eventStoreContract({
      create: () => Promise.resolve(EventStoreDbEventStore.fromConnectionString(url!)),
      dispose: () => Promise.resolve(),
      // As the adapter documents (EventStoreDbEventStore, "Where ESDB differs").
      deviations: [
        'retriesRecognisedOnlyAtSameRevision',
        'deletedEventsStayInAll',
        'ownersNotClosed',
      ],
    });
  },
);
