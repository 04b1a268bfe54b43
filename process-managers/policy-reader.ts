import type { MemoryPolicy } from '@engram/domain';

/**
 * Where process managers read a workspace's memory policy (and whether an agent has memory on).
 * `waitedFor`: the position the caller has waited for the policy's read model to reach (its
 * partition holding the workspace); a reader may then answer with what it read once that read
 * model was known to be there, instead of reading again.
 */
export interface PolicyReader {
  memoryPolicy(workspaceId: string, waitedFor?: bigint): Promise<MemoryPolicy>;
  agentMemoryEnabled(workspaceId: string, agentId: string, waitedFor?: bigint): Promise<boolean>;
}
