import type { MemoryPolicyChanged } from '@engram/domain';
import type { Projection } from '../runner/projection';
import { WorkspacePolicy } from './workspace-policies.entity';

export const workspacePoliciesProjection: Projection<WorkspacePolicy> = {
  name: 'workspace_policies',
  entity: WorkspacePolicy,
  key: ['workspaceId'],
  handles: ['MemoryPolicyChanged'],
  keysOf: (event) => [{ workspaceId: event.metadata.workspaceId }],
  apply: (event) => {
    const { policy, changedBy } = (event.event as MemoryPolicyChanged).data;
    return [
      {
        kind: 'upsert',
        row: {
          workspaceId: event.metadata.workspaceId,
          reviewMode: policy.reviewMode,
          autoApproveAbove: policy.autoApproveAbove ?? null,
          pendingTtlDays: policy.pendingTtlDays,
          liveWindow: policy.liveWindow,
          summaryBatch: policy.summaryBatch,
          userMemoryCap: policy.userMemoryCap,
          timeZone: policy.timeZone,
          locale: policy.locale,
          llmCallsPerUserPerDay: policy.llmCallsPerUserPerDay ?? null,
          updatedAt: new Date(event.metadata.occurredAt),
          updatedBy: changedBy,
        },
      },
    ];
  },
};
