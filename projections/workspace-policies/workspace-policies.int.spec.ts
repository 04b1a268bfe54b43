import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from '@engram/domain';
import {
  ALICE,
  BOB,
  buildEvents,
  defaultOccurredAt,
  projectionSpec,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import {
  memoryApproved,
  memoryDetected,
  memoryExpired,
  memoryPolicyChanged,
} from '../../test/support/events';
import { MemoryRecord } from '../memories/memories.entity';
import { memoriesProjection } from '../memories/memories.projection';
import { applyBatch } from '../runner/apply-batch';
import { WorkspacePolicy } from './workspace-policies.entity';
import { workspacePoliciesProjection } from './workspace-policies.projection';
import { findMemoryPolicy } from './workspace-policies.query';

const ROOT_W1: Owner = { workspaceId: 'w1', userId: 'root' };
const ROOT_W2: Owner = { workspaceId: 'w2', userId: 'root' };
const CAROL_W2: Owner = { workspaceId: 'w2', userId: 'carol' };

const ADMIN_REVIEW: MemoryPolicy = {
  ...DEFAULT_MEMORY_POLICY,
  reviewMode: 'admin',
  autoApproveAbove: 0.9,
  pendingTtlDays: 2,
};

const at = (position: number) => new Date(defaultOccurredAt(position));

describe('workspace_policies projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(workspacePoliciesProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given MemoryPolicyChanged, then one row per workspace with the whole policy, when and by whom', async () => {
    expect(await spec.given([memoryPolicyChanged(ADMIN_REVIEW)])).toEqual([
      {
        workspace_id: 'w1',
        review_mode: 'admin',
        auto_approve_above: 0.9,
        pending_ttl_days: 2,
        live_window: 20,
        summary_batch: 10,
        user_memory_cap: 200,
        time_zone: 'Europe/Paris',
        locale: 'fr',
        llm_calls_per_user_per_day: null,
        updated_at: at(1),
        updated_by: 'root',
      },
    ]);
  });

  it('given a daily LLM budget, then its column, and the policy read back with it (removed: null)', async () => {
    const budgeted = { ...ADMIN_REVIEW, llmCallsPerUserPerDay: 2 };
    expect(await spec.given([memoryPolicyChanged(budgeted)])).toEqual([
      expect.objectContaining({ workspace_id: 'w1', llm_calls_per_user_per_day: 2 }),
    ]);
    expect(await spec.asUser(ALICE, (manager) => findMemoryPolicy(manager, 'w1'))).toEqual(
      budgeted,
    );
    expect(await spec.when([memoryPolicyChanged(ADMIN_REVIEW)])).toEqual([
      expect.objectContaining({ workspace_id: 'w1', llm_calls_per_user_per_day: null }),
    ]);
    const policy = await spec.asUser(ALICE, (manager) => findMemoryPolicy(manager, 'w1'));
    expect(policy).toEqual(ADMIN_REVIEW);
    expect(policy).not.toHaveProperty('llmCallsPerUserPerDay');
  });

  it('given a later change, then the same row replaced; no threshold is null', async () => {
    await spec.given([memoryPolicyChanged(ADMIN_REVIEW)]);
    const { autoApproveAbove: _removed, ...withoutThreshold } = ADMIN_REVIEW;
    const rows = await spec.when([
      memoryPolicyChanged(
        { ...withoutThreshold, locale: 'en', timeZone: 'UTC' },
        { workspaceId: 'w1', userId: 'alice' },
      ),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        workspace_id: 'w1',
        review_mode: 'admin',
        auto_approve_above: null,
        pending_ttl_days: 2,
        time_zone: 'UTC',
        locale: 'en',
        updated_at: at(2),
        updated_by: 'alice',
      }),
    ]);
  });

  it('keeps the workspaces apart and gives the same rows in one batch or several', async () => {
    const events = spec.events([
      memoryPolicyChanged(ADMIN_REVIEW),
      memoryPolicyChanged({ ...DEFAULT_MEMORY_POLICY, userMemoryCap: 50 }, ROOT_W2),
      memoryPolicyChanged({ ...ADMIN_REVIEW, summaryBatch: 4 }),
      memoryPolicyChanged({ ...DEFAULT_MEMORY_POLICY, reviewMode: 'user' }, ROOT_W2),
    ]);
    const once = await spec.given(events);
    expect(once).toEqual([
      expect.objectContaining({ workspace_id: 'w1', review_mode: 'admin', summary_batch: 4 }),
      expect.objectContaining({ workspace_id: 'w2', review_mode: 'user', user_memory_cap: 200 }),
    ]);
    for (const batchSize of [1, 2, 3])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  it('handles only MemoryPolicyChanged (the runner feeds it nothing else)', () => {
    expect(workspacePoliciesProjection.handles).toEqual(['MemoryPolicyChanged']);
  });

  it("RLS: a member of w1 sees w1's policy, never w2's (findMemoryPolicy falls back to the defaults)", async () => {
    await spec.given([
      memoryPolicyChanged(ADMIN_REVIEW),
      memoryPolicyChanged({ ...DEFAULT_MEMORY_POLICY, pendingTtlDays: 30, locale: 'en' }, ROOT_W2),
    ]);
    // Any member of the workspace, not only its admins, reads the policy.
    expect(await spec.asUser(ALICE, (manager) => findMemoryPolicy(manager, 'w1'))).toEqual(
      ADMIN_REVIEW,
    );
    expect(await spec.asUser(BOB, (manager) => manager.find(WorkspacePolicy))).toEqual([
      expect.objectContaining({ workspaceId: 'w1', pendingTtlDays: 2 }),
    ]);
    // w2's row is invisible from w1, even when asked for by name.
    expect(await spec.asUser(ALICE, (manager) => findMemoryPolicy(manager, 'w2'))).toEqual(
      DEFAULT_MEMORY_POLICY,
    );
    expect(await spec.asUser(ROOT_W1, (manager) => manager.count(WorkspacePolicy), ['admin'])).toBe(
      1,
    );
    expect(await spec.asUser(CAROL_W2, (manager) => findMemoryPolicy(manager, 'w2'))).toEqual({
      ...DEFAULT_MEMORY_POLICY,
      pendingTtlDays: 30,
      locale: 'en',
    });
    // Outside runAs, the API role sees nothing.
    expect(await spec.app.manager.count(WorkspacePolicy)).toBe(0);
  });

  it('findMemoryPolicy: the defaults for a workspace that never changed its policy', async () => {
    await spec.reset();
    expect(await spec.asUser(ALICE, (manager) => findMemoryPolicy(manager, 'w1'))).toEqual(
      DEFAULT_MEMORY_POLICY,
    );
  });

  describe("the review queue policy on memories (this read model's migration)", () => {
    beforeAll(async () => {
      const memories = buildEvents([
        memoryDetected('a-pending'),
        memoryDetected('a-expired'),
        memoryExpired('a-expired'),
        memoryDetected('a-approved'),
        memoryApproved('a-approved'),
        memoryDetected('c-pending', {}, { owner: CAROL_W2 }),
      ]);
      await spec.projector.transaction(async (manager) => {
        await manager.clear(MemoryRecord);
        await applyBatch(manager, memoriesProjection, memories);
      });
    });

    const visibleIds = async (owner: Owner, roles: ('user' | 'admin')[]) =>
      (
        await spec.asUser(
          owner,
          (manager) => manager.find(MemoryRecord, { order: { memoryId: 'ASC' } }),
          roles,
        )
      ).map((row) => `${row.userId}/${row.memoryId}`);

    it("in reviewMode admin, the workspace's admins see its pending and expired candidates only", async () => {
      await spec.given([memoryPolicyChanged(ADMIN_REVIEW)]);
      expect(await visibleIds(ROOT_W1, ['admin'])).toEqual(['alice/a-expired', 'alice/a-pending']);
      // A plain member still sees only their own memories.
      expect(await visibleIds(BOB, ['user'])).toEqual([]);
      expect(await visibleIds(ALICE, ['user'])).toEqual([
        'alice/a-approved',
        'alice/a-expired',
        'alice/a-pending',
      ]);
      // w2 has no admin review: its admin sees none of carol's candidates (nor w1's).
      expect(await visibleIds(ROOT_W2, ['admin'])).toEqual([]);
    });

    it('in another review mode (or with no policy row), admins see no one else’s candidates', async () => {
      await spec.given([memoryPolicyChanged({ ...ADMIN_REVIEW, reviewMode: 'user' })]);
      expect(await visibleIds(ROOT_W1, ['admin'])).toEqual([]);
      await spec.reset();
      expect(await visibleIds(ROOT_W1, ['admin'])).toEqual([]);
    });
  });
});
