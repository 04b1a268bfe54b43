import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from '@engram/domain';

/** Where process managers read a workspace's memory policy (and whether an agent has memory on). */
export interface PolicyReader {
  memoryPolicy(workspaceId: string): Promise<MemoryPolicy>;
  agentMemoryEnabled(workspaceId: string, agentId: string): Promise<boolean>;
}

/** Seed 000's defaults for every workspace, memory on for every agent. */
export const defaultPolicies: PolicyReader = {
  memoryPolicy: () => Promise.resolve(DEFAULT_MEMORY_POLICY),
  agentMemoryEnabled: () => Promise.resolve(true),
};
