import { findMemoryPolicy, isAgentMemoryEnabled } from '@engram/projections';
import type { DataSource } from 'typeorm';
import type { PolicyReader } from './policy-reader';

/** Policies as the workspace_policies and agent_settings read models hold them. */
export function readModelPolicies(dataSource: DataSource): PolicyReader {
  return {
    memoryPolicy: (workspaceId) => findMemoryPolicy(dataSource.manager, workspaceId),
    agentMemoryEnabled: (workspaceId, agentId) =>
      isAgentMemoryEnabled(dataSource.manager, workspaceId, agentId),
  };
}
