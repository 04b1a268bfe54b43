import { EVENT_CATALOG, fixedClock } from '@engram/domain';
import { EventCodec, InMemoryEventStore } from '@engram/event-store';
import { Commands } from '../commands/commands';
import { AgentKeyUsageRecorder, USAGE_RESOLUTION_MS } from './agent-key-usage.recorder';

describe('the last use of service keys, batched', () => {
  const clock = fixedClock('2026-06-01T23:58:00.000Z');
  const store = new InMemoryEventStore();
  const codec = new EventCodec(EVENT_CATALOG);
  const recorder = new AgentKeyUsageRecorder(new Commands(store, codec, clock), clock);

  afterAll(() => recorder.beforeApplicationShutdown());

  /** What the store holds: one line per AgentKeyUsed, its stream, key and time. */
  async function uses(): Promise<string[]> {
    const events = await store.readAll();
    const decoded = await Promise.all(events.map((recorded) => codec.decode(recorded)));
    return decoded.map(({ streamId, event, metadata }) => {
      const data = event.data as { keyId: string; agentId: string };
      return `${streamId} ${event.type} ${data.keyId} ${data.agentId} ${metadata.userId} ${metadata.occurredAt}`;
    });
  }

  it('writes one event per key per flush, at its latest use, nothing when nothing was used', async () => {
    recorder.record('k1', 'w1', 'chat-web');
    clock.advance(1000);
    recorder.record('k1', 'w1', 'chat-web');
    recorder.record('k2', 'w1', 'mail-bot');
    await recorder.flush();
    await recorder.flush();
    expect(await uses()).toEqual([
      'w1/~/agent-key-usage/2026-06-01 AgentKeyUsed k1 chat-web chat-web 2026-06-01T23:58:01.000Z',
      'w1/~/agent-key-usage/2026-06-01 AgentKeyUsed k2 mail-bot mail-bot 2026-06-01T23:58:01.000Z',
    ]);
  });

  it('writes a key again only once its resolution has passed, to the day of the use', async () => {
    clock.advance(USAGE_RESOLUTION_MS - 1);
    recorder.record('k1', 'w1', 'chat-web');
    await recorder.flush();
    expect(await uses()).toHaveLength(2);
    clock.advance(1);
    recorder.record('k1', 'w1', 'chat-web');
    await recorder.flush();
    expect((await uses()).slice(2)).toEqual([
      'w1/~/agent-key-usage/2026-06-02 AgentKeyUsed k1 chat-web chat-web 2026-06-02T00:08:01.000Z',
    ]);
  });
});
