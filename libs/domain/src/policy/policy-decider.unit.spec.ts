import { deciderSpec } from '../../../../test/support/decider-spec';
import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from './memory-policy';
import {
  agentMemoryDecider,
  applyPolicyChanges,
  policyDecider,
  type ChangeMemoryPolicy,
  type MemoryPolicyChanges,
} from './policy-decider';
import type { AgentEvent, PolicyEvent } from './policy-events';

const policySpec = deciderSpec(policyDecider);
const agentSpec = deciderSpec(agentMemoryDecider);

const change = (changes: MemoryPolicyChanges, changedBy = 'root'): ChangeMemoryPolicy => ({
  type: 'ChangeMemoryPolicy',
  changes,
  changedBy,
});
const changed = (policy: MemoryPolicy, changedBy = 'root'): PolicyEvent => ({
  type: 'MemoryPolicyChanged',
  data: { policy, changedBy },
});

const ADMIN_REVIEW: MemoryPolicy = {
  ...DEFAULT_MEMORY_POLICY,
  reviewMode: 'admin',
  autoApproveAbove: 0.9,
  pendingTtlDays: 2,
};

describe('policy decider', () => {
  it('starts from the defaults (seed 000: auto review, 7-day TTL, no threshold)', () => {
    expect(policyDecider.initialState()).toEqual(DEFAULT_MEMORY_POLICY);
    expect(DEFAULT_MEMORY_POLICY).not.toHaveProperty('autoApproveAbove');
  });

  it('records the full merged policy and who changed it', () => {
    policySpec
      .given([])
      .when(change({ reviewMode: 'admin', autoApproveAbove: 0.9, pendingTtlDays: 2 }, 'alice'))
      .then([changed(ADMIN_REVIEW, 'alice')]);
  });

  it('records nothing when the values are the ones already in force', () => {
    policySpec.given([]).when(change({})).thenNothing();
    policySpec
      .given([])
      .when(change({ reviewMode: 'auto', pendingTtlDays: 7, locale: 'fr' }))
      .thenNothing();
    policySpec
      .given([changed(ADMIN_REVIEW)])
      .when(change({ reviewMode: 'admin', autoApproveAbove: 0.9, pendingTtlDays: 2 }, 'bob'))
      .thenNothing();
  });

  it('removes the threshold with autoApproveAbove: null (and records nothing when there is none)', () => {
    const { autoApproveAbove: _removed, ...withoutThreshold } = ADMIN_REVIEW;
    policySpec
      .given([changed(ADMIN_REVIEW)])
      .when(change({ autoApproveAbove: null }))
      .then([changed(withoutThreshold)]);
    const decided = policyDecider.decide(
      change({ autoApproveAbove: null }),
      ADMIN_REVIEW,
    ) as PolicyEvent[];
    expect(decided[0]?.data.policy).not.toHaveProperty('autoApproveAbove');
    policySpec
      .given([])
      .when(change({ autoApproveAbove: null }))
      .thenNothing();
  });

  it('keeps the value of absent (or undefined) fields, as a previous change left them', () => {
    policySpec
      .given([changed(ADMIN_REVIEW)])
      .when(change({ liveWindow: 30, pendingTtlDays: undefined, autoApproveAbove: undefined }))
      .then([changed({ ...ADMIN_REVIEW, liveWindow: 30 })]);
  });

  it('sets a daily LLM budget per user, changes it, and removes it with null (no budget by default)', () => {
    expect(DEFAULT_MEMORY_POLICY).not.toHaveProperty('llmCallsPerUserPerDay');
    policySpec
      .given([])
      .when(change({ llmCallsPerUserPerDay: 2 }, 'alice'))
      .then([changed({ ...DEFAULT_MEMORY_POLICY, llmCallsPerUserPerDay: 2 }, 'alice')]);
    const budgeted = { ...ADMIN_REVIEW, llmCallsPerUserPerDay: 2 };
    policySpec
      .given([changed(budgeted)])
      .when(change({ llmCallsPerUserPerDay: 2 }))
      .thenNothing();
    policySpec
      .given([changed(budgeted)])
      .when(change({ llmCallsPerUserPerDay: 50 }))
      .then([changed({ ...budgeted, llmCallsPerUserPerDay: 50 })]);
    // null removes the budget and the threshold alike, each on its own.
    policySpec
      .given([changed(budgeted)])
      .when(change({ llmCallsPerUserPerDay: null }))
      .then([changed(ADMIN_REVIEW)]);
    const decided = policyDecider.decide(
      change({ llmCallsPerUserPerDay: null }),
      budgeted,
    ) as PolicyEvent[];
    expect(decided[0]?.data.policy).not.toHaveProperty('llmCallsPerUserPerDay');
    expect(decided[0]?.data.policy.autoApproveAbove).toBe(0.9);
    policySpec
      .given([changed(ADMIN_REVIEW)])
      .when(change({ llmCallsPerUserPerDay: null }))
      .thenNothing();
  });

  it('reads a policy recorded before the budget existed as one without a budget', () => {
    // MemoryPolicyChanged events stored earlier have no llmCallsPerUserPerDay key at all.
    policySpec
      .given([changed(ADMIN_REVIEW)])
      .when(change({ llmCallsPerUserPerDay: undefined, reviewMode: 'admin' }))
      .thenNothing();
    policySpec
      .given([changed(ADMIN_REVIEW)])
      .when(change({ llmCallsPerUserPerDay: 3 }))
      .then([changed({ ...ADMIN_REVIEW, llmCallsPerUserPerDay: 3 })]);
  });

  it('folds successive changes: the state is the last recorded policy', () => {
    const later: MemoryPolicy = { ...ADMIN_REVIEW, timeZone: 'UTC', locale: 'en' };
    policySpec
      .given([changed(ADMIN_REVIEW), changed(later)])
      .when(change({ timeZone: 'UTC', locale: 'en', reviewMode: 'admin' }))
      .thenNothing();
    policySpec
      .given([changed(ADMIN_REVIEW), changed(later)])
      .when(change({ reviewMode: 'user' }))
      .then([changed({ ...later, reviewMode: 'user' })]);
  });
});

describe('applyPolicyChanges', () => {
  it('overrides the given fields and keeps the others', () => {
    expect(
      applyPolicyChanges(DEFAULT_MEMORY_POLICY, { summaryBatch: 5, userMemoryCap: 50 }),
    ).toEqual({ ...DEFAULT_MEMORY_POLICY, summaryBatch: 5, userMemoryCap: 50 });
  });

  it('ignores undefined values instead of erasing the field', () => {
    expect(
      applyPolicyChanges(ADMIN_REVIEW, {
        reviewMode: undefined,
        pendingTtlDays: undefined,
        autoApproveAbove: undefined,
      }),
    ).toEqual(ADMIN_REVIEW);
  });

  it('sets, changes and removes the threshold (null removes the key itself)', () => {
    expect(applyPolicyChanges(DEFAULT_MEMORY_POLICY, { autoApproveAbove: 0.8 })).toEqual({
      ...DEFAULT_MEMORY_POLICY,
      autoApproveAbove: 0.8,
    });
    expect(applyPolicyChanges(ADMIN_REVIEW, { autoApproveAbove: 0.5 }).autoApproveAbove).toBe(0.5);
    const removed = applyPolicyChanges(ADMIN_REVIEW, { autoApproveAbove: null });
    expect(removed).not.toHaveProperty('autoApproveAbove');
    expect(applyPolicyChanges(DEFAULT_MEMORY_POLICY, { autoApproveAbove: null })).toEqual(
      DEFAULT_MEMORY_POLICY,
    );
  });

  it('keeps a threshold of 0 (a falsy value is still a value)', () => {
    expect(applyPolicyChanges(DEFAULT_MEMORY_POLICY, { autoApproveAbove: 0 })).toEqual({
      ...DEFAULT_MEMORY_POLICY,
      autoApproveAbove: 0,
    });
    expect(
      applyPolicyChanges({ ...DEFAULT_MEMORY_POLICY, autoApproveAbove: 0 }, { liveWindow: 5 }),
    ).toEqual({ ...DEFAULT_MEMORY_POLICY, autoApproveAbove: 0, liveWindow: 5 });
  });

  it('does not modify the current policy', () => {
    const current = { ...ADMIN_REVIEW };
    applyPolicyChanges(current, { reviewMode: 'auto', autoApproveAbove: null });
    expect(current).toEqual(ADMIN_REVIEW);
  });
});

describe('agent memory decider', () => {
  const toggled = (enabled: boolean, agentId = 'agent-1', changedBy = 'root'): AgentEvent => ({
    type: 'AgentMemoryToggled',
    data: { agentId, enabled, changedBy },
  });
  const toggle = (enabled: boolean, agentId = 'agent-1', changedBy = 'root') =>
    ({ type: 'ToggleAgentMemory', agentId, enabled, changedBy }) as const;

  it('is enabled by default (seed 002)', () => {
    expect(agentMemoryDecider.initialState()).toEqual({ enabled: true });
    agentSpec.given([]).when(toggle(true)).thenNothing();
  });

  it('records AgentMemoryToggled when disabling, with the agent and who', () => {
    agentSpec
      .given([])
      .when(toggle(false, 'agent-1', 'alice'))
      .then([toggled(false, 'agent-1', 'alice')]);
  });

  it('records nothing when the value does not change, and re-enabling once disabled', () => {
    agentSpec
      .given([toggled(false)])
      .when(toggle(false))
      .thenNothing();
    agentSpec
      .given([toggled(false)])
      .when(toggle(true))
      .then([toggled(true)]);
    agentSpec
      .given([toggled(false), toggled(true)])
      .when(toggle(true))
      .thenNothing();
  });
});
