import { openStoreAndProjector, type StoreAndProjector } from '../support/store-and-projector';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, PostgresEventStore } from '@engram/event-store';
import {
  PROJECTIONS,
  ProjectionRunner,
  readCheckpoint,
  resetProjection,
  userStreamStatsProjection,
  type AnyProjection,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { appendMessage } from '../support/append-message';

const codec = new EventCodec(EVENT_CATALOG);

describe('projection runner', () => {
  let store: PostgresEventStore;
  let projector: DataSource;

  const recordMessage = (workspaceId: string, userId: string, occurredAt: string) =>
    appendMessage(store, { workspaceId, userId, occurredAt });

  async function rows() {
    return await projector.query<Record<string, unknown>[]>(
      `SELECT workspace_id, user_id, event_count, message_count, first_event_at, last_event_at, last_position
         FROM user_stream_stats ORDER BY workspace_id, user_id`,
    );
  }

  let opened: StoreAndProjector;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
    ({ store, projector } = opened);
  });
  afterAll(() => opened.close());

  beforeEach(async () => {
    await resetProjection(projector, userStreamStatsProjection);
  });

  it('given events, then rows: per-user counts and first/last times', async () => {
    await recordMessage('w1', 'alice', '2026-06-08T16:40:00.000Z');
    await recordMessage('w1', 'alice', '2026-06-08T16:42:00.000Z');
    const last = await recordMessage('w1', 'bob', '2026-06-09T09:00:00.000Z');
    const runner = new ProjectionRunner(
      { store, codec, dataSource: projector },
      userStreamStatsProjection,
    );
    expect(await runner.catchUp()).toBe(last.position);
    const byUser = Object.fromEntries((await rows()).map((row) => [row.user_id, row]));
    expect(byUser.alice).toMatchObject({
      event_count: 2,
      message_count: 2,
      first_event_at: new Date('2026-06-08T16:40:00.000Z'),
      last_event_at: new Date('2026-06-08T16:42:00.000Z'),
    });
    expect(byUser.bob).toMatchObject({ event_count: 1, last_position: last.position.toString() });
  });

  it('applies a batch and its checkpoint together: a failing batch leaves both untouched', async () => {
    await recordMessage('w1', 'carol', '2026-06-10T10:00:00.000Z');
    const runner = new ProjectionRunner(
      { store, codec, dataSource: projector },
      userStreamStatsProjection,
    );
    const before = await runner.catchUp();
    const snapshot = await rows();
    await recordMessage('w1', 'carol', '2026-06-10T10:01:00.000Z');
    await recordMessage('w1', 'dave', '2026-06-10T10:02:00.000Z');
    let calls = 0;
    const crashing: AnyProjection = {
      ...userStreamStatsProjection,
      apply: (event, view) => {
        calls += 1;
        // Transient (a serialization failure): retried by the caller, never parked.
        if (calls === 2) {
          throw Object.assign(new Error('crash in the middle of the batch'), { code: '40001' });
        }
        return userStreamStatsProjection.apply(event, view);
      },
    };
    await expect(
      new ProjectionRunner({ store, codec, dataSource: projector }, crashing).catchUp(),
    ).rejects.toThrow('crash in the middle');
    expect(await rows()).toEqual(snapshot);
    expect(await readCheckpoint(projector.manager, 'user_stream_stats')).toBe(before);
    await runner.catchUp();
    expect((await rows()).find((row) => row.user_id === 'carol')).toMatchObject({ event_count: 2 });
  });

  it('rebuilding from position 0 gives the same rows', async () => {
    for (let i = 0; i < 30; i += 1) {
      await recordMessage(
        'w2',
        `u${i % 7}`,
        `2026-06-${String(10 + (i % 9)).padStart(2, '0')}T08:00:00.000Z`,
      );
    }
    const runner = new ProjectionRunner(
      { store, codec, dataSource: projector },
      userStreamStatsProjection,
      {
        batchSize: 7,
      },
    );
    await runner.catchUp();
    const first = await rows();
    await resetProjection(projector, userStreamStatsProjection);
    expect(await rows()).toEqual([]);
    await new ProjectionRunner({ store, codec, dataSource: projector }, userStreamStatsProjection, {
      batchSize: 1000,
    }).catchUp();
    expect(await rows()).toEqual(first);
  });

  it('follows live appends, and two runners of one projection never apply an event twice', async () => {
    const controller = new AbortController();
    const deps = { store, codec, dataSource: projector };
    const running = [
      new ProjectionRunner(deps, userStreamStatsProjection, { batchSize: 3 }).run(
        controller.signal,
      ),
      new ProjectionRunner(deps, userStreamStatsProjection, { batchSize: 5 }).run(
        controller.signal,
      ),
    ];
    const appends = 40;
    let last = 0n;
    await Promise.all(
      Array.from({ length: appends }, async (_, i) => {
        const result = await recordMessage(
          'w3',
          'erin',
          `2026-07-01T00:00:${String(i).padStart(2, '0')}.000Z`,
        );
        if (result.position > last) last = result.position;
      }),
    );
    const deadline = Date.now() + 10_000;
    while (
      (await readCheckpoint(projector.manager, 'user_stream_stats')) < last &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort();
    await Promise.all(running);
    const erin = (await rows()).find((row) => row.user_id === 'erin');
    expect(erin).toMatchObject({ event_count: appends, message_count: appends });
  });

  it('lists every projection with a unique name and the event types it handles', () => {
    const names = PROJECTIONS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const projection of PROJECTIONS) {
      for (const type of projection.handles) expect(codec.knows(type)).toBe(true);
    }
  });
});
