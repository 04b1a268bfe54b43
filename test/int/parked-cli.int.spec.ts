import { openStoreAndProjector, type StoreAndProjector } from '../support/store-and-projector';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, PostgresEventStore } from '@engram/event-store';
import {
  ProjectionRunner,
  listParked,
  userStreamStatsProjection,
  type AnyProjection,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { parkedCommand } from '../../apps/cli/src/commands/parked';
import { parseCliArgs } from '../../apps/cli/src/args';
import { appendMessage } from '../support/append-message';
import { testRuntime } from '../support/test-runtime';

const codec = new EventCodec(EVENT_CATALOG);

/** What an operator types: `engram parked list | retry | skip`. */
describe('engram parked (CLI)', () => {
  let database: StoreAndProjector['database'];
  let store: PostgresEventStore;
  let projector: DataSource;
  const poisoned = new Set<string>();
  const projection: AnyProjection = {
    ...userStreamStatsProjection,
    apply: (event, view) => {
      if (poisoned.has(event.eventId)) throw new Error('value out of range');
      return userStreamStatsProjection.apply(event, view);
    },
  };
  const catchUp = () =>
    new ProjectionRunner({ store, codec, dataSource: projector }, projection, {
      retryMs: 5,
      attemptsBeforeParking: 1,
    }).catchUp();

  /** Runs the command; what it printed on stdout and stderr. */
  async function cli(...argv: string[]): Promise<{ out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      err.push(String(chunk));
      return true;
    });
    try {
      const args = parseCliArgs(argv);
      await parkedCommand(testRuntime(database), args);
      return { out: out.join(''), err: err.join('') };
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
  }

  let opened: StoreAndProjector;
  beforeAll(async () => {
    opened = await openStoreAndProjector();
    ({ database, store, projector } = opened);
  });
  afterAll(() => opened.close());

  it('lists what is parked, refuses a skip without a reason, and records retry and skip as events', async () => {
    expect((await cli('parked', 'list')).out).toBe('nothing is parked\n');
    const at = '2026-06-10T10:00:00.000Z';
    const poison = await appendMessage(store, {
      workspaceId: 'w',
      userId: 'mallory',
      occurredAt: at,
    });
    poisoned.add(poison.messageId);
    await appendMessage(store, { workspaceId: 'w', userId: 'mallory', occurredAt: at });
    await catchUp();

    const listed = (await cli('parked', 'list')).out;
    expect(listed).toContain('user_stream_stats\tw/mallory\tposition 1\tMessageRecorded');
    expect(listed).toContain(poison.messageId);
    expect(listed).toContain('value out of range');

    const args = ['user_stream_stats', '--ws', 'w', '--user', 'mallory'];
    await expect(cli('parked', 'skip', ...args)).rejects.toThrow('a skip needs --reason');
    await expect(
      cli('parked', 'retry', 'memories', '--ws', 'w', '--user', 'mallory'),
    ).rejects.toThrow('nothing of w/mallory is parked by memories');

    // A retry without the fix: parked again, one try more.
    expect((await cli('parked', 'retry', ...args, '--by', 'ops')).err).toContain(
      `retry of MessageRecorded ${poison.messageId}`,
    );
    await catchUp();
    expect(await listParked(projector.manager)).toMatchObject([{ userId: 'mallory', attempts: 2 }]);

    await cli('parked', 'skip', ...args, '--by', 'ops', '--reason', 'bad data from an old client');
    await catchUp();
    expect(await listParked(projector.manager)).toEqual([]);
    const [mallory] = await projector.query<{ event_count: number }[]>(
      `SELECT event_count FROM user_stream_stats WHERE user_id = 'mallory'`,
    );
    expect(mallory).toEqual({ event_count: 1 });

    const ref = {
      consumer: 'user_stream_stats',
      workspaceId: 'w',
      userId: 'mallory',
      eventId: poison.messageId,
      requestedBy: 'cli:ops',
    };
    const decisions = (await store.readStream('w/~/operations/parked-events')).map((event) => ({
      type: event.type,
      data: event.data,
    }));
    expect(decisions).toEqual([
      { type: 'ParkedEventRetryRequested', data: ref },
      { type: 'ParkedEventSkipped', data: { ...ref, reason: 'bad data from an old client' } },
    ]);
  });
});
