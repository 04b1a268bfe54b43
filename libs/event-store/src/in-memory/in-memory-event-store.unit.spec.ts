import { randomUUID } from 'node:crypto';
import type { EventRecord } from '../event-store.port';
import { InMemoryEventStore } from './in-memory-event-store';

// What the contract suite cannot say for every adapter: where the in-memory store imitates
// PostgreSQL's refusals, and how it ends. The rest is test/contract.
const record = (
  data: Record<string, unknown> = {},
  eventId: string = randomUUID(),
): EventRecord => ({
  eventId,
  type: 'Tested',
  schemaVersion: 1,
  data,
  metadata: {},
});

describe('InMemoryEventStore', () => {
  it('keeps event ids as a uuid column does, and refuses what it refuses', async () => {
    const store = new InMemoryEventStore();
    const id = randomUUID();
    await store.appendToStream('w/u/k/1', [record({}, id.toUpperCase())], {
      expectedRevision: 'no_stream',
    });
    expect((await store.readStream('w/u/k/1'))[0]!.eventId).toBe(id);
    await expect(
      store.appendToStream('w/u/k/2', [record({}, 'event-1')], { expectedRevision: 'any' }),
    ).rejects.toThrow('event-1 is not a UUID');
    const twice = randomUUID();
    await expect(
      store.appendToStream('w/u/k/3', [record({}, twice), record({}, twice)], {
        expectedRevision: 'any',
      }),
    ).rejects.toThrow('the same event id appears twice');
  });

  it('stores payloads as jsonb would: a Date as its ISO string, undefined dropped, bigint refused', async () => {
    const store = new InMemoryEventStore({ now: () => new Date('2026-06-01T00:00:00.000Z') });
    const at = new Date('2026-06-08T16:40:00.000Z');
    await store.appendToStream('w/u/k/1', [record({ at, gone: undefined })], {
      expectedRevision: 'no_stream',
    });
    const [read] = await store.readStream('w/u/k/1');
    expect(read!.data).toEqual({ at: at.toISOString() });
    expect(read!.recordedAt).toEqual(new Date('2026-06-01T00:00:00.000Z'));
    await expect(
      store.appendToStream('w/u/k/2', [record({ n: 1n })], { expectedRevision: 'any' }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(await store.headPosition()).toBe(1n);
  });

  it('ends its subscriptions when closed, and refuses calls afterwards', async () => {
    const store = new InMemoryEventStore();
    const followed = (async () => {
      for await (const event of store.subscribeToAll()) void event;
    })();
    await store.close();
    await expect(followed).resolves.toBeUndefined();
    await expect(store.ping()).rejects.toThrow('closed');
  });
});
