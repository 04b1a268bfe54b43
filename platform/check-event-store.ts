import { EventStoreDbEventStore } from '@engram/event-store/eventstoredb';
/**
 * Before anything starts on EventStoreDB: its `$by_category` projection must run with the standard
 * separator, or per-user reads and erasure would silently find nothing. Refuses to start otherwise
 * (EventStoreMisconfiguredError, saying what to change); `/health` checks it again (`ping`).
 */
export async function checkEventStore(
  config: Readonly<{ eventStoreUrl?: string | undefined }>,
  log: (message: string) => void,
): Promise<void> {
  if (!config.eventStoreUrl) return;
  const store = EventStoreDbEventStore.fromConnectionString(config.eventStoreUrl);
  try {
    const report = await store.checkCategoryProjection();
    log(`EventStoreDB: ${report.projection} ${report.status}, separator ${report.separator}`);
  } finally {
    await store.close();
  }
}
