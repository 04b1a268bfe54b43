import { DomainNotFoundError, EVENT_CATALOG, fixedClock } from '@engram/domain';
import { EventCodec, type EventRecord } from '@engram/event-store';
import { EventStoreDbEventStore } from '@engram/event-store/eventstoredb';
import { FakeEventStoreDbClient } from '../../../test/support/fake-eventstoredb-client';
import { recordAuditAccess } from './audit-access';

/**
 * The audit record is refused for a user with no history. On EventStoreDB the per-user read trails
 * the appends: a user whose first events are not linked yet must not be taken for one who never
 * existed.
 */
function setUp() {
  const client = new FakeEventStoreDbClient();
  const store = new EventStoreDbEventStore(client.asClient(), {
    categoryWait: { timeoutMs: 400, firstDelayMs: 5, maxDelayMs: 20 },
  });
  const deps = {
    store,
    codec: new EventCodec(EVENT_CATALOG),
    clock: fixedClock('2026-12-01T10:00:00Z'),
  };
  return { client, store, deps };
}

const access = (userId: string) => ({
  workspaceId: 'ws',
  userId,
  access: 'export' as const,
  auditorId: 'auditor-1',
});

const firstEvent: EventRecord = {
  eventId: '00000000-0000-4000-8000-000000000001',
  type: 'MemoryStored',
  schemaVersion: 1,
  data: { text: 'hello' },
  metadata: { workspaceId: 'ws', userId: 'newcomer' },
};

describe('recordAuditAccess on a store whose per-user read trails the appends', () => {
  it('finds a user whose first event is not linked yet, once the index gets there', async () => {
    const { client, store, deps } = setUp();
    client.category.immediate = false;
    await store.appendToStream('ws/newcomer/memory/a', [firstEvent], { expectedRevision: 'any' });
    setTimeout(() => client.catchUp(), 50);

    const position = await recordAuditAccess(deps, access('newcomer'));
    expect(position).toBeGreaterThan(0n);
  });

  it('refuses a user with no event at all, after the lag bound, writing nothing', async () => {
    const { store, deps } = setUp();
    const started = Date.now();
    await expect(recordAuditAccess(deps, access('nobody'))).rejects.toBeInstanceOf(
      DomainNotFoundError,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(await store.headPosition()).toBe(0n);
  });
});
