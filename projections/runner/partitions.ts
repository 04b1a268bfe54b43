import { parseStreamName } from '@engram/domain';

/**
 * Background work is cut by owner: a projection (or a process manager) runs as `count` partitions,
 * each following the log with its own checkpoint and lease, and applying only the events of the
 * owners that hash to it. Per-user read models are cut by (workspace, user), workspace-level ones by
 * workspace, so one owner's events are always applied by one partition, in order.
 */
export type PartitionSlice = Readonly<{ index: number; count: number }>;

export const WHOLE: PartitionSlice = { index: 0, count: 1 };

/** The owner an event belongs to, from its stream name: `~` stands for the workspace itself. */
export type Owner = Readonly<{ workspaceId: string; userId: string }>;

export const WORKSPACE_OWNER = '~';

export function ownerOfStream(streamId: string, workspaceLevel: boolean): Owner {
  const parsed = parseStreamName(streamId);
  if (!parsed) return { workspaceId: streamId, userId: WORKSPACE_OWNER };
  return {
    workspaceId: parsed.workspaceId,
    userId: workspaceLevel ? WORKSPACE_OWNER : (parsed.userId ?? WORKSPACE_OWNER),
  };
}

export function ownerKey(owner: Owner): string {
  return `${owner.workspaceId}/${owner.userId}`;
}

/** FNV-1a: stable across processes and versions, cheap, and evenly spread for identifiers. */
export function partitionIndexOf(owner: Owner, count: number): number {
  if (count <= 1) return 0;
  let hash = 0x811c9dc5;
  const key = ownerKey(owner);
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/** The name of one partition of `name` (its checkpoint, its lease); the whole keeps the plain name. */
export function partitionName(name: string, slice: PartitionSlice): string {
  return slice.count <= 1 ? name : `${name}#${slice.index}/${slice.count}`;
}

export function partitionNames(name: string, count: number): string[] {
  return Array.from({ length: Math.max(1, count) }, (_, index) =>
    partitionName(name, { index, count }),
  );
}

/** The partition of `name` that applies the events of `owner`. */
export function partitionNameFor(name: string, owner: Owner, count: number): string {
  return partitionName(name, { index: partitionIndexOf(owner, count), count });
}

/** The name a partition's checkpoint or lease was derived from. */
export function baseNameOf(partition: string): string {
  const hash = partition.lastIndexOf('#');
  return hash < 0 ? partition : partition.slice(0, hash);
}
