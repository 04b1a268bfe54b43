import { openStoreAndProjector, type StoreAndProjector } from '../support/store-and-projector';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, type PostgresEventStore } from '@engram/event-store';
import {
  CommittedCheckpoints,
  findSession,
  partitionIndexOf,
  ProjectionRunner,
  resetProjection,
  sessionsProjection,
  type Session,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { committedRow } from '../../process-managers/runner/committed-row';
import { appendMessage } from '../support/append-message';

const codec = new EventCodec(EVENT_CATALOG);
const PARTITIONS = 2;

/**
 * A process manager reads a session from the row cache of the sessions runner of this process
 * (no statement) only when that runner has committed the position it waits for; the row is the
 * table's.
 */
describe('rows read from the runners of this process', () => {
  let opened: StoreAndProjector;
  let store: PostgresEventStore;
  let projector: DataSource;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
    ({ store, projector } = opened);
  });
  afterAll(() => opened.close());
  beforeEach(() => resetProjection(projector, sessionsProjection));

  async function until(check: () => boolean): Promise<void> {
    for (let i = 0; i < 500 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  }

  it('given messages committed by the runner here, then the cached row equals the table row', async () => {
    const owner = { workspaceId: 'w-cache', userId: 'ana' };
    const key = { ...owner, sessionId: 's' };
    const committed = new CommittedCheckpoints();
    const deps = { committed, partitions: PARTITIONS };
    const index = partitionIndexOf(owner, PARTITIONS);
    const runner = new ProjectionRunner(
      { store, codec, dataSource: projector, committed },
      sessionsProjection,
      { slice: { index, count: PARTITIONS } },
    );
    const stop = new AbortController();
    const running = runner.run(stop.signal);
    try {
      const first = await appendMessage(store, {
        ...owner,
        occurredAt: '2026-06-08T16:40:00.000Z',
      });
      await until(() => (committed.positionOf(runner.name) ?? -1n) >= first.position);
      const second = await appendMessage(store, {
        ...owner,
        occurredAt: '2026-06-08T16:41:00.000Z',
      });
      // Not yet committed by the runner: nothing from the cache (the caller waits and reads the table).
      if ((committed.positionOf(runner.name) ?? -1n) < second.position) {
        expect(committedRow<Session>(deps, 'sessions', key, second.position)).toBeUndefined();
      }
      await until(() => (committed.positionOf(runner.name) ?? -1n) >= second.position);
      const cached = committedRow<Session>(deps, 'sessions', key, second.position);
      expect(cached).toEqual(await findSession(projector.manager, 'w-cache', 'ana', 's'));
      expect(cached).toMatchObject({ messageCount: 2, lastPosition: second.position.toString() });
      // Another session, or a position past the runner's: not from the cache.
      expect(
        committedRow<Session>(deps, 'sessions', { ...key, sessionId: 'x' }, 1n),
      ).toBeUndefined();
      expect(committedRow<Session>(deps, 'sessions', key, second.position + 1n)).toBeUndefined();
    } finally {
      stop.abort();
      await running;
    }
    // A runner that stopped serves nothing: its rows may be written by another worker from now on.
    expect(committedRow<Session>(deps, 'sessions', key, 1n)).toBeUndefined();
    expect(committedRow<Session>({ partitions: PARTITIONS }, 'sessions', key, 1n)).toBeUndefined();
  });
});
