import fc from 'fast-check';
import {
  DomainConflictError,
  DomainNotFoundError,
  EVENT_CATALOG,
  memoryDecider,
  messageDecider,
  userStream,
  type Event,
} from '@engram/domain';
import {
  AGGREGATES,
  commandHistories,
  decideHistory,
} from '../../../test/support/command-histories';
import { propertyParameters } from '../../../test/support/property-parameters';
import { EventCodec } from './codec';
import { handleCommand } from './handle-command';
import { InMemoryEventStore } from './in-memory/in-memory-event-store';
import { StreamStates } from './stream-states';

const metadata = {
  workspaceId: 'w1',
  userId: 'alice',
  causationId: 'message-1',
  correlationId: 'c1',
  occurredAt: '2026-06-08T16:40:00.000Z',
};

const detect = (sourceMessageId: string) => ({
  type: 'DetectMemoryCandidate' as const,
  data: {
    memoryId: 'm1',
    kind: 'preference' as const,
    content: 'Prefers short answers',
    confidence: 0.8,
    sourceMessageId,
    sourceExcerpt: 'I prefer short answers',
    sessionId: 's1',
    generation: 0,
  },
  review: { mode: 'auto' as const },
});
const reinforce = (sourceMessageId: string) => ({
  type: 'ReinforceMemory' as const,
  data: { memoryId: 'm1', sourceMessageId, confidence: 0.9 },
});

function setUp(capacity = 10) {
  const store = new InMemoryEventStore();
  const context = { store, codec: new EventCodec(EVENT_CATALOG) };
  const states = new StreamStates(capacity);
  const streamId = userStream('w1', 'alice', 'memory', 'm1');
  const readStream = jest.spyOn(store, 'readStream');
  return { store, context, states, streamId, readStream };
}

describe('StreamStates (a cache of folded states)', () => {
  it('keeps the most recently used entries, and gives an entry only to the decider that folded it', () => {
    const states = new StreamStates(2);
    const entry = { decider: memoryDecider, state: { status: 'absent' }, revision: 0n };
    states.set('a', { ...entry, eventId: 'A' });
    states.set('b', { ...entry, eventId: 'b' });
    expect(states.get('a', memoryDecider)?.eventId).toBe('a'); // ids compared lower-cased
    states.set('c', { ...entry, eventId: 'c' }); // pushes out b, used least recently
    expect(states.get('b', memoryDecider)).toBeUndefined();
    expect(states.get('a', memoryDecider)).toBeDefined();
    expect(states.get('c', messageDecider)).toBeUndefined();
    expect(states.size).toBe(2);
    expect(() => new StreamStates(0)).toThrow(/positive integer/);
  });
});

describe('handleCommand with StreamStates', () => {
  it('given a memory it decided on, when it is reinforced again, then only the events since are read', async () => {
    const { context, states, streamId, readStream } = setUp();
    const options = { metadata, states };
    await handleCommand(context, streamId, memoryDecider, detect('msg-1'), {
      ...options,
      usuallyOpensStream: true,
    });
    expect(readStream).not.toHaveBeenCalled();
    await handleCommand(context, streamId, memoryDecider, reinforce('msg-2'), options);
    const third = await handleCommand(
      context,
      streamId,
      memoryDecider,
      reinforce('msg-3'),
      options,
    );
    // Each read starts at the event the known state was folded up to (the detection opened the
    // stream at revisions 0 and 1, each reinforcement adds one).
    expect(readStream.mock.calls.map(([, read]) => read?.fromRevision)).toEqual([1n, 2n]);
    expect(third.events).toEqual([
      {
        type: 'MemoryReinforced',
        data: { memoryId: 'm1', sourceMessageId: 'msg-3', confidence: 0.9 },
      },
    ]);
    expect(third.state).toMatchObject({
      status: 'approved',
      seenCount: 3,
      sources: ['msg-1', 'msg-2', 'msg-3'],
    });
    // A message heard already counts once, on the known state as on a whole read.
    const again = await handleCommand(
      context,
      streamId,
      memoryDecider,
      reinforce('msg-2'),
      options,
    );
    expect(again.events).toEqual([]);
    expect(again.position).toBe(third.position);
  });

  it('given another writer appended since, when deciding, then its events are folded onto the known state', async () => {
    const { context, states, streamId } = setUp();
    await handleCommand(context, streamId, memoryDecider, detect('msg-1'), { metadata, states });
    // Another process (the API, another worker) deletes the memory: it keeps no states.
    await handleCommand(
      context,
      streamId,
      memoryDecider,
      {
        type: 'DeleteMemory',
        by: { kind: 'person', userId: 'alice', role: 'user' },
        reason: 'deleted',
      },
      { metadata },
    );
    const late = await handleCommand(context, streamId, memoryDecider, reinforce('msg-2'), {
      metadata,
      states,
    });
    expect(late.events).toEqual([]);
    expect(late.state).toMatchObject({ status: 'deleted' });
    expect(late.history.map((h) => h.event.type)).toEqual(['MemoryDeleted']);
  });

  it('given the stream no longer holds the known event (deleted, or written anew), when deciding, then it is read whole', async () => {
    const { store, context, states, streamId, readStream } = setUp();
    await handleCommand(context, streamId, memoryDecider, detect('msg-1'), { metadata, states });
    // A stale entry: same revision, another event id (the store lost or replaced the stream).
    const known = states.get(streamId, memoryDecider)!;
    states.set(streamId, { ...known, eventId: 'not-the-stored-one' });
    readStream.mockClear();
    const decided = await handleCommand(context, streamId, memoryDecider, reinforce('msg-2'), {
      metadata,
      states,
    });
    expect(readStream.mock.calls.map(([, read]) => read?.fromRevision)).toEqual([1n, undefined]);
    expect(decided.history).toHaveLength(2);
    expect(decided.state).toMatchObject({ seenCount: 2 });
    // Deleted (an erasure): the entry is dropped and the command decided on no stream.
    await store.deleteStream(streamId);
    await expect(
      handleCommand(context, streamId, memoryDecider, reinforce('msg-3'), { metadata, states }),
    ).resolves.toMatchObject({ events: [], state: { status: 'absent' } });
    expect(states.get(streamId, memoryDecider)).toBeUndefined();
  });

  it('given a metadata function of the history, then the states are not used (it needs the whole stream)', async () => {
    const { context, states, streamId, readStream } = setUp();
    await handleCommand(context, streamId, memoryDecider, detect('msg-1'), { metadata, states });
    readStream.mockClear();
    const decided = await handleCommand(context, streamId, memoryDecider, reinforce('msg-2'), {
      metadata: () => metadata,
      states,
    });
    expect(readStream.mock.calls.map(([, read]) => read?.fromRevision)).toEqual([undefined]);
    expect(decided.history).toHaveLength(2);
  });

  // Over the aggregates whose streams take many commands (the memory, the action), and over all.
  it.each([[['memory', 'action']], [undefined]])(
    'any history of commands (%p), sent by a process keeping states and one keeping none, in any interleaving, decides as the whole fold does (property-based)',
    async (aggregates) => {
      const sender = fc.constantFrom('cached', 'plain');
      await fc.assert(
        fc.asyncProperty(
          commandHistories({ minLength: 10, maxLength: 40, ...(aggregates ? { aggregates } : {}) }),
          fc.array(sender, { minLength: 40, maxLength: 40 }),
          fc.integer({ min: 1, max: 3 }),
          async (steps, senders, capacity) => {
            const store = new InMemoryEventStore();
            const context = { store, codec: new EventCodec(EVENT_CATALOG) };
            const states = new StreamStates(capacity);
            for (const [index, step] of steps.entries()) {
              const { decider, stream } = AGGREGATES[step.aggregate]!;
              const cached = senders[index] === 'cached';
              try {
                await handleCommand(context, stream(step.owner, step.id), decider, step.command, {
                  metadata: { ...metadata, ...step.owner },
                  ...(cached ? { states } : {}),
                });
              } catch (error) {
                if (error instanceof DomainConflictError || error instanceof DomainNotFoundError) {
                  continue;
                }
                throw error;
              }
            }
            const expected = decideHistory(steps).streams;
            for (const [streamId, { events }] of expected) {
              const stored = await store.readStream(streamId).catch(() => []);
              const decoded = await Promise.all(stored.map((e) => context.codec.decode<Event>(e)));
              // As stored: JSON (an `undefined` in an array is read back as null).
              expect(decoded.map((d) => d.event)).toEqual(JSON.parse(JSON.stringify(events)));
            }
          },
        ),
        propertyParameters(150),
      );
    },
  );
});
