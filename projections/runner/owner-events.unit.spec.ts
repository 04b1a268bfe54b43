import { EventStoreDbEventStore } from '@engram/event-store/eventstoredb';
import type { EventRecord, RecordedEvent } from '@engram/event-store';
import { FakeEventStoreDbClient } from '../../test/support/fake-eventstoredb-client';
import { readOwnerEvents } from './owner-events';
import { ParkingLot } from './parking-lot';
import type { ParkedEvent } from './parked-events';

/**
 * Resuming a parked owner reads their events again through the store's per-user read. On
 * EventStoreDB that read trails the appends (the category links are written after the events), so
 * the events the partition held back must be asked for by position, not read as they happen to be
 * linked.
 */

let ids = 0;
function record(): EventRecord {
  ids += 1;
  return {
    eventId: `00000000-0000-4000-8000-${ids.toString().padStart(12, '0')}`,
    type: 'MemoryStored',
    schemaVersion: 1,
    data: { text: 'hello' },
    metadata: { workspaceId: 'ws', userId: 'u' },
  };
}

const owner = { workspaceId: 'ws', userId: 'u' };

describe('readOwnerEvents on a store whose per-user index trails the appends', () => {
  async function lagging() {
    const client = new FakeEventStoreDbClient();
    const store = new EventStoreDbEventStore(client.asClient(), {
      categoryWait: { timeoutMs: 300, firstDelayMs: 5, maxDelayMs: 20 },
    });
    // The projection lags: it links only when told to.
    client.category.immediate = false;
    const positions: bigint[] = [];
    for (const stream of ['ws/u/memory/a', 'ws/u/memory/b', 'ws/u/memory/c']) {
      const { position } = await store.appendToStream(stream, [record()], {
        expectedRevision: 'any',
      });
      positions.push(position);
    }
    // It has linked the first event only.
    client.catchUp(positions[0]);
    return { client, store, positions };
  }

  it('without a position, answers what is linked so far (the events held back would be lost)', async () => {
    const { store, positions } = await lagging();
    const events = await readOwnerEvents(store, owner, positions[0]! - 1n, positions[2]!);
    expect(events.map((event) => event.streamId)).toEqual(['ws/u/memory/a']);
  });

  it('with the last held-back position, waits for the index and answers every event', async () => {
    const { client, store, positions } = await lagging();
    setTimeout(() => client.catchUp(), 30);
    const events = await readOwnerEvents(
      store,
      owner,
      positions[0]! - 1n,
      positions[2]!,
      positions[2],
    );
    expect(events.map((event) => event.streamId)).toEqual([
      'ws/u/memory/a',
      'ws/u/memory/b',
      'ws/u/memory/c',
    ]);
  });
});

describe('ParkingLot.resumeThrough', () => {
  const event = (stream: string, position: bigint) =>
    ({ ...record(), streamId: stream, globalPosition: position }) as RecordedEvent;
  const parkedAt = (position: bigint): ParkedEvent => ({
    consumer: 'memories',
    partition: 'memories',
    ...owner,
    position,
    eventId: 'e',
    eventType: 'MemoryStored',
    error: 'boom',
    attempts: 1,
    firstSeenAt: new Date(),
    lastSeenAt: new Date(),
  });

  it("is the owner's newest event held back, the parked one when none was, and resets on forget", () => {
    const lot = new ParkingLot('memories', { index: 0, count: 1 }, false, 3);
    const parked = parkedAt(10n);
    lot.remember(parked);
    expect(lot.resumeThrough(parked)).toBe(10n);

    expect(lot.holds(event('ws/u/memory/b', 14n))).toBe(true);
    expect(lot.holds(event('ws/other/memory/x', 15n))).toBe(false);
    expect(lot.holds(event('ws/u/memory/c', 12n))).toBe(true);
    expect(lot.resumeThrough(parked)).toBe(14n);

    lot.forget(owner);
    lot.remember(parked);
    expect(lot.resumeThrough(parked)).toBe(10n);
  });
});
