import { EVENT_CATALOG, memoryUsageDecider, userStream } from '@engram/domain';
import { EventCodec } from './codec';
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
});
