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
