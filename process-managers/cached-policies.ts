import type { MemoryPolicy } from '@engram/domain';
import {
  WORKSPACE_OWNER,
  agentSettingsProjection,
  partitionNameFor,
  workspacePoliciesProjection,
  type CommittedCheckpoints,
} from '@engram/projections';
import type { PolicyReader } from './policy-reader';

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

type Entry<T> = { value: Promise<T>; version: number };

class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, currentVersion: () => number | undefined, read: () => Promise<T>): Promise<T> {
    // Taken before the read: a change committed during the read makes the entry stale at once.
    const version = currentVersion();
    if (version === undefined) return read();
    const entry = this.entries.get(key);
    if (entry?.version === version) return entry.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = read();
    // A failed read is not kept: the next reaction reads again.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    this.entries.set(key, { value, version });
    return value;
  }
}
