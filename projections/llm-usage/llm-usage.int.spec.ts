import {
  ALICE,
  BOB,
  projectionSpec,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { llmCallDeferred, llmCallRecorded } from '../../test/support/events';
import { LlmUsage } from './llm-usage.entity';
import { llmUsageProjection } from './llm-usage.projection';
import {
  countBudgetedCalls,
  findLlmUsageSince,
  findWorkspaceLlmTotals,
  findWorkspaceLlmUsage,
} from './llm-usage.query';

const ROOT_W1: Owner = { workspaceId: 'w1', userId: 'root' };
const CAROL_W2: Owner = { workspaceId: 'w2', userId: 'carol' };
const ROOT_W2: Owner = { workspaceId: 'w2', userId: 'root' };

describe('llm_usage projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(llmUsageProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given calls of one day and purpose, then one row summing them, engines sorted once each', async () => {
    expect(
      await spec.given([
        llmCallRecorded({
          engine: 'gpt-4o-mini',
          promptTokens: 900,
          completionTokens: 40,
          latencyMs: 700,
        }),
        llmCallRecorded({
          cause: 'message/m2',
          engine: 'gpt-4o-mini',
          promptTokens: 800,
          completionTokens: 0,
          latencyMs: 30_000,
          outcome: 'failed',
          reason: 'timeout',
        }),
        llmCallRecorded({ cause: 'message/m2', latencyMs: 3 }),
        llmCallRecorded({
          cause: 'message/m4',
          engine: 'gpt-4o-mini',
          outcome: 'invalid',
          reason: 'refusal',
        }),
      ]),
    ).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        day: '2026-06-01',
        purpose: 'extraction',
        calls: 4,
        failures: 2,
        prompt_tokens: '1700',
        completion_tokens: '40',
        latency_ms: '30705',
        engines: ['gpt-4o-mini', 'offline-rules'],
        deferred: 0,
      },
    ]);
  });

  it('given other days, purposes and users, then a row for each; deferrals counted on their day', async () => {
    const rows = await spec.given([
      llmCallRecorded(),
      llmCallRecorded({ purpose: 'summary', cause: 'session/s1/12' }),
      llmCallRecorded({ purpose: 'identity_card', cause: 'memories/14' }),
      llmCallRecorded({ day: '2026-06-02', cause: 'message/m5' }),
      llmCallDeferred(),
      llmCallDeferred({ cause: 'message/m6', messageId: 'm6' }),
      llmCallRecorded({}, { owner: BOB }),
    ]);
    expect(rows.map((row) => [row.user_id, row.day, row.purpose, row.calls, row.deferred])).toEqual(
      [
        ['alice', '2026-06-01', 'extraction', 1, 2],
        ['alice', '2026-06-01', 'identity_card', 1, 0],
        ['alice', '2026-06-01', 'summary', 1, 0],
        ['alice', '2026-06-02', 'extraction', 1, 0],
        ['bob', '2026-06-01', 'extraction', 1, 0],
      ],
    );
  });

  it('gives the same rows in one batch or event by event', async () => {
    const events = spec.events([
      llmCallRecorded({ engine: 'b', promptTokens: 5 }),
      llmCallRecorded({ engine: 'a', promptTokens: 7 }),
      llmCallDeferred(),
      llmCallRecorded({ purpose: 'summary', engine: 'a' }),
    ]);
    const once = await spec.given(events);
    for (const batchSize of [1, 2]) expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  describe('queries and who may read them', () => {
    beforeAll(async () => {
      await spec.given([
        llmCallRecorded({ promptTokens: 10, completionTokens: 1 }),
        llmCallRecorded({ purpose: 'summary', cause: 'session/s1/9', promptTokens: 100 }),
        llmCallRecorded({ purpose: 'identity_card', cause: 'memories/3' }),
        llmCallRecorded({ day: '2026-05-20', cause: 'message/old' }),
        llmCallDeferred(),
        llmCallRecorded(
          { engine: 'gpt-4o-mini', promptTokens: 20, outcome: 'failed', reason: 'http_503' },
          { owner: BOB },
        ),
        llmCallRecorded({}, { owner: ROOT_W1 }),
        llmCallRecorded({ promptTokens: 1000 }, { owner: CAROL_W2 }),
      ]);
    });

    it('a user reads their own days, newest first, and never anyone else’s', async () => {
      const mine = await spec.asUser(ALICE, (manager) =>
        findLlmUsageSince(manager, 'w1', 'alice', '2026-05-01'),
      );
      expect(mine.map((row) => [row.day, row.purpose])).toEqual([
        ['2026-06-01', 'extraction'],
        ['2026-06-01', 'identity_card'],
        ['2026-06-01', 'summary'],
        ['2026-05-20', 'extraction'],
      ]);
      expect(
        await spec.asUser(ALICE, (manager) =>
          findLlmUsageSince(manager, 'w1', 'alice', '2026-06-01'),
        ),
      ).toHaveLength(3);
      // Asking for bob's rows by name, as a user: nothing.
      expect(
        await spec.asUser(ALICE, (manager) =>
          findLlmUsageSince(manager, 'w1', 'bob', '2026-05-01'),
        ),
      ).toEqual([]);
      expect(await spec.asUser(ALICE, (manager) => manager.count(LlmUsage))).toBe(4);
    });

    it('the budget counts extraction and summary calls of the day, not the identity card', async () => {
      expect(
        await spec.asUser(ALICE, (manager) =>
          countBudgetedCalls(manager, 'w1', 'alice', '2026-06-01'),
        ),
      ).toBe(2);
      expect(
        await spec.projector.transaction((manager) =>
          countBudgetedCalls(manager, 'w1', 'alice', '2026-06-02'),
        ),
      ).toBe(0);
    });

    it("a workspace admin reads every user's totals of their workspace by purpose, never another workspace's", async () => {
      const page = await spec.asUser(
        ROOT_W1,
        (manager) => findWorkspaceLlmUsage(manager, 'w1', '2026-05-25', { limit: 10 }),
        ['user', 'admin'],
      );
      expect(page.map((row) => [row.userId, row.purpose, row.calls, row.promptTokens])).toEqual([
        ['alice', 'extraction', 1, 10],
        ['alice', 'identity_card', 1, 0],
        ['alice', 'summary', 1, 100],
        ['bob', 'extraction', 1, 20],
        ['root', 'extraction', 1, 0],
      ]);
      expect(page.find((row) => row.userId === 'alice' && row.purpose === 'extraction')).toEqual({
        userId: 'alice',
        purpose: 'extraction',
        calls: 1,
        failures: 0,
        promptTokens: 10,
        completionTokens: 1,
        latencyMs: 2,
        deferred: 1,
        engines: ['offline-rules'],
      });
      expect(page.find((row) => row.userId === 'bob')).toMatchObject({
        failures: 1,
        engines: ['gpt-4o-mini'],
      });
      // Pages of users in id order.
      const first = await spec.asUser(
        ROOT_W1,
        (manager) => findWorkspaceLlmUsage(manager, 'w1', '2026-05-25', { limit: 1 }),
        ['admin'],
      );
      expect(new Set(first.map((row) => row.userId))).toEqual(new Set(['alice']));
      const next = await spec.asUser(
        ROOT_W1,
        (manager) =>
          findWorkspaceLlmUsage(manager, 'w1', '2026-05-25', { afterUserId: 'alice', limit: 1 }),
        ['admin'],
      );
      expect(next.map((row) => row.userId)).toEqual(['bob']);
      const totals = await spec.asUser(
        ROOT_W1,
        (manager) => findWorkspaceLlmTotals(manager, 'w1', '2026-05-01'),
        ['admin'],
      );
      expect(totals.map((row) => [row.purpose, row.calls, row.promptTokens])).toEqual([
        ['extraction', 4, 30],
        ['identity_card', 1, 0],
        ['summary', 1, 100],
      ]);
      // w2's admin sees w2 only; w1 asked by name gives nothing.
      expect(
        await spec.asUser(
          ROOT_W2,
          (manager) => findWorkspaceLlmUsage(manager, 'w1', '2026-05-01', { limit: 10 }),
          ['admin'],
        ),
      ).toEqual([]);
      expect(await spec.asUser(ROOT_W2, (manager) => manager.count(LlmUsage), ['admin'])).toBe(1);
    });

    it('without the admin role, the workspace view holds only the caller’s own rows', async () => {
      const page = await spec.asUser(BOB, (manager) =>
        findWorkspaceLlmUsage(manager, 'w1', '2026-05-01', { limit: 10 }),
      );
      expect(page.map((row) => row.userId)).toEqual(['bob']);
      // Outside runAs, the API role sees nothing.
      expect(await spec.app.manager.count(LlmUsage)).toBe(0);
    });
  });
});
