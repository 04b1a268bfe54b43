import type { MemoryPolicy } from '@engram/domain';

/** Where process managers read a workspace's memory policy (and whether an agent has memory on). */
export interface PolicyReader {
  memoryPolicy(workspaceId: string): Promise<MemoryPolicy>;
  agentMemoryEnabled(workspaceId: string, agentId: string): Promise<boolean>;
}
