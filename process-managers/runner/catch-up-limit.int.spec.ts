import {
  openStoreAndProjector,
  type StoreAndProjector,
} from '../../test/support/store-and-projector';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_CATALOG, type MessageRecorded } from '@engram/domain';
import { EventCodec, type DecodedEvent } from '@engram/event-store';
import { ObservedEventStore } from '@engram/observability';
import { ProjectionRunner, SharedEventFeed, userStreamStatsProjection } from '@engram/projections';
import { appendMessage } from '../../test/support/append-message';
import { CatchUpLimit } from './catch-up-limit';
import { ReactorRunner } from './reactor-runner';

/**
 * Wired as the worker wires it: the worker's store tells the limit its appends, its feed what it
 * reads, a projection follows the head beside the reactor (without a reader at the head, a busy
 * reactor alone would see the feed quiet while others write).
 */
describe('the catch-up limit of a worker that runs the projections too', () => {
  let opened: StoreAndProjector;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
  });
  afterAll(() => opened.close());

  it('reacts for one owner at a time while another writer appends, for several once only its own appends come', async () => {
    const { store, projector: dataSource } = opened;
    const codec = new EventCodec(EVENT_CATALOG);
    const limit = new CatchUpLimit(1, 8, 300);
    const observed = new ObservedEventStore(store, {
      appending: (events) => limit.appending(events),
      appended: () => undefined,
      failed: () => undefined,
    });
    const feed = new SharedEventFeed(observed, codec, { onRead: (events) => limit.read(events) });
    const workspaceId = `catch-${randomUUID()}`;
    const occurredAt = '2026-06-08T16:40:00.000Z';
    let writing = true;
    let active = 0;
    const most = { whileWriting: 0, after: 0 };
    let reacted = 0;
    const reactor = new ReactorRunner(
      { store: observed, codec, dataSource, feed },
      {
        name: `catch-up-${randomUUID()}`,
        handles: ['MessageRecorded'],
        react: async (event: DecodedEvent) => {
          if (event.metadata.workspaceId !== workspaceId) return;
          active += 1;
          const phase = writing ? 'whileWriting' : 'after';
          most[phase] = Math.max(most[phase], active);
          await sleep(30);
          // What a reaction appends (another owner's, ignored here): the worker's own writes.
          const { userId } = event.metadata;
          const text = (event as DecodedEvent<MessageRecorded>).event.data.text;
          await appendMessage(observed, {
            workspaceId: `echo-${workspaceId}`,
            userId,
            occurredAt,
            text,
          });
          active -= 1;
          reacted += 1;
        },
      },
      { ownersInFlight: () => limit.current() },
    );
    const projection = new ProjectionRunner(
      { store: observed, codec, dataSource, feed },
      userStreamStatsProjection,
    );
    const stop = new AbortController();
    const running = Promise.all([reactor.run(stop.signal), projection.run(stop.signal)]);
    try {
      const messages = 100;
      for (let i = 0; i < messages; i += 1) {
        await appendMessage(store, { workspaceId, userId: `u${i}`, occurredAt });
        await sleep(10);
      }
      writing = false;
      expect(reacted).toBeLessThan(messages); // a backlog is left
      for (let tries = 0; reacted < messages; tries += 1) {
        if (tries > 400) throw new Error(`reacted to ${reacted} of ${messages}`);
        await sleep(25);
      }
      expect(most.whileWriting).toBe(1);
      expect(most.after).toBeGreaterThan(1);
    } finally {
      stop.abort();
      await running;
      feed.close();
    }
  });
});
