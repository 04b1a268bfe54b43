import {
  EVENT_CATALOG,
  deterministicId,
  memoryUsageDecider,
  userStream,
  type Decider,
  type MemoriesUsed,
} from '@engram/domain';
import { FakeEventStoreDbClient } from '../../../test/support/fake-eventstoredb-client';
import { EventCodec } from './codec';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { handleCommand } from './handle-command';
import { InMemoryEventStore } from './in-memory/in-memory-event-store';

describe('handleCommand with appendOnly (a log stream)', () => {
  const metadata = {
    workspaceId: 'w1',
    userId: 'alice',
    causationId: 'context',
    correlationId: 'c1',
    occurredAt: '2026-06-08T16:40:00.000Z',
  };

  it('appends each batch to the same stream without reading it', async () => {
    const store = new InMemoryEventStore();
    const context = { store, codec: new EventCodec(EVENT_CATALOG) };
    const streamId = userStream('w1', 'alice', 'memory-usage', '2026-06-08');
    const readStream = jest.spyOn(store, 'readStream');
    const use = (memoryIds: string[]) =>
      handleCommand(
        context,
        streamId,
        memoryUsageDecider,
        { type: 'RecordMemoryUsage', memoryIds },
        { metadata, appendOnly: true },
      );
    const first = await use(['m1']);
    const second = await use(['m2', 'm2']);
    const nothing = await use([]);
    expect(readStream).not.toHaveBeenCalled();
    expect(second.position).toBeGreaterThan(first.position);
    expect(nothing).toMatchObject({ events: [], position: 0n });
    const stored = await store.readStream(streamId);
    expect(stored.map((event) => event.streamRevision)).toEqual([0n, 1n]);
  });

  it('with deterministic ids, appends each event once, even where the store forgot the retry (EventStoreDB restarted)', async () => {
    const client = new FakeEventStoreDbClient();
    const store = new EventStoreDbEventStore(client.asClient());
    const context = { store, codec: new EventCodec(EVENT_CATALOG) };
    const streamId = userStream('w1', 'alice', 'memory-usage', '2026-06-08');
    const use = (memoryIds: string[], work: string) =>
      handleCommand(
        context,
        streamId,
        memoryUsageDecider,
        { type: 'RecordMemoryUsage', memoryIds },
        { metadata, appendOnly: true, eventIds: () => [deterministicId('usage', work)] },
      );
    const first = await use(['m1'], 'work-1');
    await use(['m2'], 'work-2');
    client.restart(); // the server's idempotency window is gone

    const rerun = await use(['m1'], 'work-1');
    expect(rerun.position).toBe(first.position);
    const stored = await store.readStream(streamId);
    expect(stored.map((event) => event.eventId)).toEqual([
      deterministicId('usage', 'work-1'),
      deterministicId('usage', 'work-2'),
    ]);
  });

  it('with deterministic ids on a store that recognises a retry anywhere, appends without reading, and reads only for a partial retry', async () => {
    const store = new InMemoryEventStore();
    expect(store.recognisesRetriesAnywhere).toBe(true);
    const context = { store, codec: new EventCodec(EVENT_CATALOG) };
    const streamId = userStream('w1', 'alice', 'memory-usage', '2026-06-08');
    // One event per memory, each id derived from its memory: a later command may repeat some.
    const perMemory: Decider<readonly string[], MemoriesUsed, null> = {
      initialState: () => null,
      decide: (ids) => ids.map((id) => ({ type: 'MemoriesUsed', data: { memoryIds: [id] } })),
      evolve: (state) => state,
    };
    const use = (memoryIds: string[]) =>
      handleCommand(context, streamId, perMemory, memoryIds, {
        metadata,
        appendOnly: true,
        eventIds: (events) => events.map((e) => deterministicId('usage', e.data.memoryIds[0]!)),
      });
    const readStream = jest.spyOn(store, 'readStream');
    const first = await use(['m1']);
    const rerun = await use(['m1']);
    expect(readStream).not.toHaveBeenCalled();
    expect(rerun.position).toBe(first.position);

    const partial = await use(['m1', 'm2']); // m1 stored already: only m2 is written
    expect(readStream).toHaveBeenCalledTimes(1);
    const stored = await store.readStream(streamId);
    expect(stored.map((event) => event.data)).toEqual([
      { memoryIds: ['m1'] },
      { memoryIds: ['m2'] },
    ]);
    expect(partial.position).toBe(stored[1]!.globalPosition);
  });
});
