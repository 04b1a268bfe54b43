import { randomUUID } from 'node:crypto';
import { InMemoryEventStore, StreamDeletedError } from '@engram/event-store';
import { ObservedEventStore } from './observed-event-store';

const observer = { appended: () => undefined, failed: () => undefined };
const record = () => ({
  eventId: randomUUID(),
  type: 'Tested',
  schemaVersion: 1,
  data: {},
  metadata: {},
});

describe('the observed event store (what production wraps every adapter in)', () => {
  it("forwards what callers read of the adapter's guarantees", () => {
    const lagging = Object.assign(new InMemoryEventStore(), { userIndexLagBoundMs: 5_000 });
    const observed = new ObservedEventStore(lagging, observer);
    // The audit's "has this user a history" check waits this long (EventStoreDB's category lag).
    expect(observed.userIndexLagBoundMs).toBe(5_000);
    expect(new ObservedEventStore(new InMemoryEventStore(), observer).userIndexLagBoundMs).toBe(
      undefined,
    );
    expect(observed.closesOwnersAtomically).toBe(true);
  });

  it('closes an owner through to the adapter: their new streams are refused', async () => {
    const observed = new ObservedEventStore(new InMemoryEventStore(), observer);
    await observed.closeOwner('w', 'una', ['w/una/erasure/record']);
    await expect(
      observed.appendToStream('w/una/identity-card/current', [record()], {
        expectedRevision: 'any',
      }),
    ).rejects.toBeInstanceOf(StreamDeletedError);
    await observed.appendToStream('w/una/erasure/record', [record()], {
      expectedRevision: 'no_stream',
    });
  });

  it('tells the observer of an append before it is sent (a reader may see it before it returns), then after', async () => {
    const inner = new InMemoryEventStore();
    const seen: string[] = [];
    const send = inner.appendToStream.bind(inner);
    inner.appendToStream = (...args) => {
      seen.push('sent');
      return send(...args);
    };
    const observed = new ObservedEventStore(inner, {
      appending: (events) => seen.push(`appending ${events.length}`),
      appended: (events) => seen.push(`appended ${events.length}`),
      failed: () => seen.push('failed'),
    });
    await observed.appendToStream('w/una/session/s', [record(), record()], {
      expectedRevision: 'no_stream',
    });
    await expect(
      observed.appendToStream('w/una/session/s', [record()], { expectedRevision: 'no_stream' }),
    ).rejects.toThrow();
    expect(seen).toEqual(['appending 2', 'sent', 'appended 2', 'appending 1', 'sent', 'failed']);
  });
});
