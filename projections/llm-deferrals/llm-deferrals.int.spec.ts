import {
  ALICE,
  BOB,
  projectionSpec,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { llmCallDeferred, llmCallResumed } from '../../test/support/events';
import { LlmDeferral } from './llm-deferrals.entity';
import { llmDeferralsProjection } from './llm-deferrals.projection';
import { findDueLlmDeferrals, findLlmDeferrals } from './llm-deferrals.query';

const ROOT_W1: Owner = { workspaceId: 'w1', userId: 'root' };
const TONIGHT = '2026-06-01T22:00:00.000Z';
const TOMORROW_NIGHT = '2026-06-02T22:00:00.000Z';

/** Deferred in the morning (10:00 in Paris), the time the row keeps as deferredAt. */
const deferred = (data: Parameters<typeof llmCallDeferred>[0] = {}, owner: Owner = ALICE) =>
  llmCallDeferred(data, { owner, occurredAt: '2026-06-01T10:00:00.000Z' });

describe('llm_deferrals projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(llmDeferralsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given a deferral, then one row: what waits, for which message, until when', async () => {
    expect(await spec.given([deferred()])).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        purpose: 'extraction',
        cause: 'message/m3',
        message_id: 'm3',
        generation: 0,
        budget_limit: 2,
        deferred_at: new Date('2026-06-01T10:00:00.000Z'),
        until: new Date(TONIGHT),
        position: '1',
      },
    ]);
  });

  it('given the work resumed, then the row is gone', async () => {
    expect(await spec.given([deferred(), llmCallResumed(TONIGHT)])).toEqual([]);
  });

  it('given the work deferred again before the first resumption lands, then the later until stays', async () => {
    const rows = await spec.given([
      deferred(),
      deferred({ day: '2026-06-02', until: TOMORROW_NIGHT }),
      llmCallResumed(TONIGHT),
    ]);
    // Still listed, with the first deferral's time and position (the job runs the oldest first).
    expect(rows).toEqual([
      expect.objectContaining({
        until: new Date(TOMORROW_NIGHT),
        deferred_at: new Date('2026-06-01T10:00:00.000Z'),
        position: '1',
      }),
    ]);
    expect(await spec.when([llmCallResumed(TOMORROW_NIGHT)])).toEqual([]);
  });

  it('a summary without a generation; a resumption of nothing listed changes nothing', async () => {
    const rows = await spec.given([
      deferred({ purpose: 'summary', cause: 'session/s1', messageId: 'm9', generation: undefined }),
      llmCallResumed(TONIGHT, { cause: 'message/unknown' }),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ purpose: 'summary', cause: 'session/s1', generation: null }),
    ]);
  });

  it("lists the due work of every user for the job, and each user's own for the API (RLS, admins too)", async () => {
    await spec.given([
      deferred(),
      deferred({ cause: 'message/m4', messageId: 'm4', until: TOMORROW_NIGHT }),
      deferred({}, BOB),
      deferred({}, ROOT_W1),
    ]);
    const due = await spec.projector.transaction((manager) =>
      findDueLlmDeferrals(manager, new Date(TONIGHT), 10),
    );
    expect(due.map((row) => `${row.userId}/${row.cause}`)).toEqual([
      'alice/message/m3',
      'bob/message/m3',
      'root/message/m3',
    ]);
    expect(
      await spec.projector.transaction((manager) =>
        findDueLlmDeferrals(manager, new Date('2026-06-01T21:59:59.999Z'), 10),
      ),
    ).toEqual([]);
    const mine = await spec.asUser(ALICE, (manager) => findLlmDeferrals(manager, 'w1', 'alice'));
    expect(mine.map((row) => row.cause)).toEqual(['message/m3', 'message/m4']);
    expect(
      await spec.asUser(ROOT_W1, (manager) => manager.count(LlmDeferral), ['user', 'admin']),
    ).toBe(1);
    expect(await spec.asUser(ALICE, (manager) => findLlmDeferrals(manager, 'w1', 'bob'))).toEqual(
      [],
    );
  });
});
