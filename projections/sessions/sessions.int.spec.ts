import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { messageRecorded, rollingSummaryExtended } from '../../test/support/events';
import { sessionsProjection } from './sessions.projection';
import { findSession } from './sessions.query';

describe('sessions projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(sessionsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given messages, then one row per session with counts, first/last times and last position', async () => {
    const rows = await spec.given([
      messageRecorded('m1', {}, { occurredAt: '2026-06-08T10:00:00.000Z' }),
      messageRecorded('m2', { sessionId: 's2' }),
      // Backdated: the first message time is the earliest, not the first applied.
      messageRecorded('m3', {}, { occurredAt: '2026-06-08T09:00:00.000Z' }),
      messageRecorded('m4', {}, { occurredAt: '2026-06-08T11:00:00.000Z' }),
    ]);
    expect(rows).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        session_id: 's1',
        message_count: 3,
        summarized_count: 0,
        summarized_through_position: '0',
        rolling_summary: '',
        summary_model: null,
        summary_updated_at: null,
        first_message_at: new Date('2026-06-08T09:00:00.000Z'),
        last_message_at: new Date('2026-06-08T11:00:00.000Z'),
        last_position: '4',
      },
      {
        workspace_id: 'w1',
        user_id: 'alice',
        session_id: 's2',
        message_count: 1,
        summarized_count: 0,
        summarized_through_position: '0',
        rolling_summary: '',
        summary_model: null,
        summary_updated_at: null,
        first_message_at: new Date(defaultOccurredAt(2)),
        last_message_at: new Date(defaultOccurredAt(2)),
        last_position: '2',
      },
    ]);
  });

  it('given RollingSummaryExtended, then the summary fields of the session', async () => {
    await spec.given([messageRecorded('m1'), messageRecorded('m2'), messageRecorded('m3')]);
    const rows = await spec.when([
      rollingSummaryExtended('s1', { throughPosition: '2', summarizedCount: 2 }),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        session_id: 's1',
        message_count: 3,
        summarized_count: 2,
        summarized_through_position: '2',
        rolling_summary: 'summary through 2',
        summary_model: 'model-a',
        summary_updated_at: new Date(defaultOccurredAt(4)),
        last_position: '3',
      }),
    ]);
    const later = await spec.when([
      messageRecorded('m5'),
      rollingSummaryExtended('s1', { throughPosition: '5', summarizedCount: 3 }),
    ]);
    expect(later[0]).toMatchObject({
      message_count: 4,
      summarized_count: 3,
      summarized_through_position: '5',
      rolling_summary: 'summary through 5',
      last_position: '5',
    });
  });

  it('a summary of an unknown session changes nothing', async () => {
    expect(
      await spec.given([
        messageRecorded('m1'),
        rollingSummaryExtended('nope', { throughPosition: '1', summarizedCount: 1 }),
      ]),
    ).toEqual([
      expect.objectContaining({ session_id: 's1', rolling_summary: '', summarized_count: 0 }),
    ]);
  });

  it('gives the same rows whether the events come in one batch or several', async () => {
    const events = spec.events([
      messageRecorded('m1'),
      messageRecorded('m2', { sessionId: 's2' }),
      messageRecorded('m3'),
      rollingSummaryExtended('s1', { throughPosition: '3', summarizedCount: 2 }),
      messageRecorded('m5', { sessionId: 's1' }, { owner: BOB }),
      messageRecorded('m6'),
      rollingSummaryExtended('s1', { throughPosition: '6', summarizedCount: 3 }),
      messageRecorded('m8', { sessionId: 's2' }),
    ]);
    const once = await spec.given(events);
    expect(once).toHaveLength(3);
    for (const batchSize of [1, 2, 3, 5])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  it("findSession: the session of the caller, null when unknown or someone else's", async () => {
    await spec.given([
      messageRecorded('m1'),
      messageRecorded('m2'),
      rollingSummaryExtended('s1', { throughPosition: '2', summarizedCount: 2 }),
      messageRecorded('b1', { sessionId: 's1' }, { owner: BOB }),
    ]);
    const session = await spec.asUser(ALICE, (manager) =>
      findSession(manager, 'w1', 'alice', 's1'),
    );
    expect(session).toMatchObject({
      workspaceId: 'w1',
      userId: 'alice',
      sessionId: 's1',
      messageCount: 2,
      summarizedCount: 2,
      summarizedThroughPosition: '2',
      rollingSummary: 'summary through 2',
      summaryModel: 'model-a',
      summaryUpdatedAt: new Date(defaultOccurredAt(3)),
      lastPosition: '2',
    });
    expect(
      await spec.asUser(ALICE, (manager) => findSession(manager, 'w1', 'alice', 'unknown')),
    ).toBeNull();
    expect(
      await spec.asUser(BOB, (manager) => findSession(manager, 'w1', 'alice', 's1')),
    ).toBeNull();
  });
});
