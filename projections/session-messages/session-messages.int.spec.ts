import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { messageRecorded } from '../../test/support/events';
import { sessionMessagesProjection } from './session-messages.projection';
import { findLiveWindow, findMessagesToSummarize } from './session-messages.query';

describe('session_messages projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(sessionMessagesProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given MessageRecorded, then one row with the message, its trace and its position', async () => {
    const rows = await spec.given([
      messageRecorded(
        'm1',
        { agentId: 'agent-7' },
        { traceId: 'trace-1', occurredAt: '2026-06-08T16:40:00.000Z' },
      ),
      messageRecorded('m2', { role: 'assistant', channel: 'slack' }),
    ]);
    expect(rows).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        message_id: 'm1',
        session_id: 's1',
        role: 'user',
        channel: 'web',
        text: 'text of m1',
        agent_id: 'agent-7',
        trace_id: 'trace-1',
        occurred_at: new Date('2026-06-08T16:40:00.000Z'),
        position: '1',
      },
      {
        workspace_id: 'w1',
        user_id: 'alice',
        message_id: 'm2',
        session_id: 's1',
        role: 'assistant',
        channel: 'slack',
        text: 'text of m2',
        agent_id: null,
        trace_id: null,
        occurred_at: new Date(defaultOccurredAt(2)),
        position: '2',
      },
    ]);
  });

  it('ignores the other message events', async () => {
    expect(
      await spec.given([
        { type: 'MemoryExtractionFailed', data: { messageId: 'm1', reason: 'down', model: 'x' } },
      ]),
    ).toEqual([]);
  });

  it('gives the same rows whether the events come in one batch or several', async () => {
    const events = spec.events([
      messageRecorded('m1'),
      messageRecorded('m2', { sessionId: 's2' }),
      messageRecorded('m3', {}, { owner: BOB }),
      messageRecorded('m4'),
      messageRecorded('m5', { sessionId: 's2' }),
    ]);
    const once = await spec.given(events);
    expect(once).toHaveLength(5);
    for (const batchSize of [1, 2, 3])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  describe('queries', () => {
    beforeAll(async () => {
      await spec.given([
        messageRecorded('m1'),
        messageRecorded('m2'),
        messageRecorded('other-session', { sessionId: 's2' }),
        messageRecorded('m3'),
        messageRecorded('bobs', {}, { owner: BOB }),
        messageRecorded('m4'),
      ]);
    });

    it('findLiveWindow: the last messages of the session, oldest first', async () => {
      const window = await spec.asUser(ALICE, (manager) =>
        findLiveWindow(manager, 'w1', 'alice', 's1', 3),
      );
      expect(window.map((m) => m.messageId)).toEqual(['m2', 'm3', 'm4']);
      expect(window[0]).toMatchObject({ sessionId: 's1', position: '2', agentId: null });
      const all = await spec.asUser(ALICE, (manager) =>
        findLiveWindow(manager, 'w1', 'alice', 's1', 10),
      );
      expect(all.map((m) => m.messageId)).toEqual(['m1', 'm2', 'm3', 'm4']);
      expect(
        await spec.asUser(ALICE, (manager) => findLiveWindow(manager, 'w1', 'alice', 's1', 0)),
      ).toEqual([]);
    });

    it("findLiveWindow under RLS: another user sees none of alice's messages", async () => {
      const window = await spec.asUser(BOB, (manager) =>
        findLiveWindow(manager, 'w1', 'alice', 's1', 10),
      );
      expect(window).toEqual([]);
    });

    it('findMessagesToSummarize: after a position, oldest first, at most limit', async () => {
      const after = await spec.asUser(ALICE, (manager) =>
        findMessagesToSummarize(manager, 'w1', 'alice', 's1', '1', 2),
      );
      expect(after.map((m) => m.messageId)).toEqual(['m2', 'm3']);
      const rest = await spec.asUser(ALICE, (manager) =>
        findMessagesToSummarize(manager, 'w1', 'alice', 's1', '4', 10),
      );
      expect(rest.map((m) => m.messageId)).toEqual(['m4']);
      const none = await spec.asUser(ALICE, (manager) =>
        findMessagesToSummarize(manager, 'w1', 'alice', 's1', '6', 10),
      );
      expect(none).toEqual([]);
    });
  });
});
