import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from '@engram/domain';
import type { EntityManager } from 'typeorm';
import { WorkspacePolicy } from './workspace-policies.entity';

/** The workspace's memory policy, or the defaults when it never changed it. */
export async function findMemoryPolicy(
  manager: EntityManager,
  workspaceId: string,
): Promise<MemoryPolicy> {
  return toMemoryPolicy(await manager.findOne(WorkspacePolicy, { where: { workspaceId } }));
}

/** A policy row (what it holds of the policy) as the domain's policy; no row means the defaults. */
export function toMemoryPolicy(
  row: Omit<WorkspacePolicy, 'workspaceId' | 'updatedAt' | 'updatedBy'> | null,
): MemoryPolicy {
  if (!row) return DEFAULT_MEMORY_POLICY;
  return {
    reviewMode: row.reviewMode,
    ...(row.autoApproveAbove !== null ? { autoApproveAbove: row.autoApproveAbove } : {}),
    pendingTtlDays: row.pendingTtlDays,
    liveWindow: row.liveWindow,
    summaryBatch: row.summaryBatch,
    userMemoryCap: row.userMemoryCap,
    timeZone: row.timeZone,
    locale: row.locale,
    ...(row.llmCallsPerUserPerDay !== null
      ? { llmCallsPerUserPerDay: row.llmCallsPerUserPerDay }
      : {}),
  };
}
