import type { MemoryPolicy } from '@engram/domain';
import {
  WORKSPACE_OWNER,
  agentSettingsProjection,
  partitionNameFor,
  workspacePoliciesProjection,
  type CommittedCheckpoints,
} from '@engram/projections';
import type { PolicyReader } from './policy-reader';
import { ReadThroughCache } from './read-through-cache';
import { VersionedCache } from './versioned-cache';

/**
 * The workspace policies and agent settings as read by the process managers of one worker, kept
 * while the projection that holds them, run in this worker, has applied no event of theirs since:
 * every message used to read them once per reactor. A reaction therefore sees a change as soon as a
 * read would. Read models another worker projects are kept for the reactions that waited for a
 * position their checkpoint had passed in the table before the read (`ReadThroughCache`), and read
 * every time by a caller that waited for nothing (the jobs).
 */
export function cachedPolicies(
  reader: PolicyReader,
  committed: CommittedCheckpoints,
  partitions = 1,
  maxEntries = 10_000,
): PolicyReader {
  const partitionOf = (projection: string, workspaceId: string) =>
    partitionNameFor(projection, { workspaceId, userId: WORKSPACE_OWNER }, partitions);
  const cached = <T>(projection: string) => {
    const here = new VersionedCache<T>(maxEntries);
    const elsewhere = new ReadThroughCache<T>(maxEntries, committed.seenForMs);
    return (
      key: string,
      workspaceId: string,
      waitedFor: bigint | undefined,
      read: () => Promise<T>,
    ): Promise<T> => {
      const name = partitionOf(projection, workspaceId);
      // The version of the partition that holds the workspace's rows, when it is projected here.
      if (committed.rowsVersionOf(name) !== undefined || waitedFor === undefined) {
        return here.get(key, () => committed.rowsVersionOf(name), read);
      }
      return elsewhere.get(key, waitedFor, () => committed.tablePositionOf(name), read);
    };
  };
  const policies = cached<MemoryPolicy>(workspacePoliciesProjection.name);
  const agents = cached<boolean>(agentSettingsProjection.name);
  return {
    memoryPolicy: (workspaceId, waitedFor) =>
      policies(workspaceId, workspaceId, waitedFor, () => reader.memoryPolicy(workspaceId)),
    agentMemoryEnabled: (workspaceId, agentId, waitedFor) =>
      agents(JSON.stringify([workspaceId, agentId]), workspaceId, waitedFor, () =>
        reader.agentMemoryEnabled(workspaceId, agentId),
      ),
  };
}
