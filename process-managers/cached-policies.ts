import type { MemoryPolicy } from '@engram/domain';
import {
  WORKSPACE_OWNER,
  agentSettingsProjection,
  partitionNameFor,
  workspacePoliciesProjection,
  type CommittedCheckpoints,
} from '@engram/projections';
import type { PolicyReader } from './policy-reader';
import { VersionedCache } from './versioned-cache';

/**
 * The workspace policies and agent settings as read by the process managers of one worker, kept
 * while the projection that holds them, run in this worker, has applied no event of theirs since:
 * every message used to read them once per reactor. A reaction therefore sees a change as soon as a
 * read would. Read models another worker projects are read every time.
 */
export function cachedPolicies(
  reader: PolicyReader,
  committed: CommittedCheckpoints,
  partitions = 1,
  maxEntries = 10_000,
): PolicyReader {
  // The version of the partition that holds the workspace's rows.
  const versionOf = (projection: string, workspaceId: string) => () =>
    committed.rowsVersionOf(
      partitionNameFor(projection, { workspaceId, userId: WORKSPACE_OWNER }, partitions),
    );
  const policies = new VersionedCache<MemoryPolicy>(maxEntries);
  const agents = new VersionedCache<boolean>(maxEntries);
  return {
    memoryPolicy: (workspaceId) =>
      policies.get(workspaceId, versionOf(workspacePoliciesProjection.name, workspaceId), () =>
        reader.memoryPolicy(workspaceId),
      ),
    agentMemoryEnabled: (workspaceId, agentId) =>
      agents.get(
        JSON.stringify([workspaceId, agentId]),
        versionOf(agentSettingsProjection.name, workspaceId),
        () => reader.agentMemoryEnabled(workspaceId, agentId),
      ),
  };
}
