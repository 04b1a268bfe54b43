import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from '@engram/domain';
import { CommittedCheckpoints } from '@engram/projections';
import { cachedPolicies } from './cached-policies';
import type { PolicyReader } from './policy-reader';

describe('cached policies', () => {
  function reader() {
    const state: { policy: MemoryPolicy; reads: number; fail: boolean } = {
      policy: DEFAULT_MEMORY_POLICY,
      reads: 0,
      fail: false,
    };
    const policies: PolicyReader = {
      memoryPolicy: () => {
        state.reads += 1;
        return state.fail ? Promise.reject(new Error('down')) : Promise.resolve(state.policy);
      },
      agentMemoryEnabled: () => {
        state.reads += 1;
        return Promise.resolve(true);
      },
    };
    return { state, policies };
  }

  it('reads a policy again once its projection applied an event of its own', async () => {
    const { state, policies } = reader();
    const committed = new CommittedCheckpoints();
    committed.started('workspace_policies', 0n);
    committed.started('agent_settings', 0n);
    const cached = cachedPolicies(policies, committed);
    await cached.memoryPolicy('w');
    await cached.agentMemoryEnabled('w', 'a');
    committed.committed('workspace_policies', 5n, false);
    await cached.memoryPolicy('w');
    await cached.agentMemoryEnabled('w', 'a');
    expect(state.reads).toBe(2);

    state.policy = { ...DEFAULT_MEMORY_POLICY, summaryBatch: 3 };
    committed.committed('workspace_policies', 6n, true);
    expect((await cached.memoryPolicy('w')).summaryBatch).toBe(3);
    expect(state.reads).toBe(3);
  });

  it('reads every time what another worker projects', async () => {
    const { state, policies } = reader();
    const cached = cachedPolicies(policies, new CommittedCheckpoints());
    await cached.memoryPolicy('w');
    await cached.memoryPolicy('w');
    expect(state.reads).toBe(2);
  });

  it('keeps what another worker projects for the positions its checkpoint had passed before the read', async () => {
    const { state, policies } = reader();
    const committed = new CommittedCheckpoints();
    const cached = cachedPolicies(policies, committed);
    // The reaction's wait read the checkpoint at 10 in the table.
    committed.sawInTable('workspace_policies', 10n);
    await cached.memoryPolicy('w', 4n);
    await cached.memoryPolicy('w', 10n);
    expect(state.reads).toBe(1);
    // A reaction at 11 waited until the table said 15: the policy of 10 may be older, read again.
    state.policy = { ...DEFAULT_MEMORY_POLICY, summaryBatch: 3 };
    committed.sawInTable('workspace_policies', 15n);
    expect((await cached.memoryPolicy('w', 11n)).summaryBatch).toBe(3);
    expect((await cached.memoryPolicy('w', 15n)).summaryBatch).toBe(3);
    expect(state.reads).toBe(2);
    // Agents by agent, and a caller that waited for nothing (a job) reads every time.
    committed.sawInTable('agent_settings', 15n);
    await cached.agentMemoryEnabled('w', 'a', 12n);
    await cached.agentMemoryEnabled('w', 'a', 13n);
    await cached.agentMemoryEnabled('w', 'b', 13n);
    await cached.memoryPolicy('w');
    expect(state.reads).toBe(5);
  });

  it('keeps nothing for a position its checkpoint was not seen to pass', async () => {
    const { state, policies } = reader();
    const committed = new CommittedCheckpoints();
    const cached = cachedPolicies(policies, committed);
    await cached.memoryPolicy('w', 3n);
    committed.sawInTable('workspace_policies', 2n);
    await cached.memoryPolicy('w', 3n);
    await cached.memoryPolicy('w', 3n);
    expect(state.reads).toBe(3);
    // Seen past it, but the read failed: not kept.
    committed.sawInTable('workspace_policies', 5n);
    state.fail = true;
    await expect(cached.memoryPolicy('w', 4n)).rejects.toThrow('down');
    state.fail = false;
    await cached.memoryPolicy('w', 4n);
    await cached.memoryPolicy('w', 5n);
    expect(state.reads).toBe(5);
  });

  it('does not keep a failed read', async () => {
    const { state, policies } = reader();
    const committed = new CommittedCheckpoints();
    committed.started('workspace_policies', 0n);
    const cached = cachedPolicies(policies, committed);
    state.fail = true;
    await expect(cached.memoryPolicy('w')).rejects.toThrow('down');
    state.fail = false;
    await expect(cached.memoryPolicy('w')).resolves.toEqual(DEFAULT_MEMORY_POLICY);
    await cached.memoryPolicy('w');
    expect(state.reads).toBe(2);
  });
});
