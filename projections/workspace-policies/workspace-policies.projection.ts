import type { HandledBy, Projection } from '../runner/projection';
import { WorkspacePolicy } from './workspace-policies.entity';

const HANDLES = ['MemoryPolicyChanged'] as const;

export const workspacePoliciesProjection: Projection<WorkspacePolicy, HandledBy<typeof HANDLES>> = {
  name: 'workspace_policies',
  entity: WorkspacePolicy,
  key: ['workspaceId'],
  handles: HANDLES,
  keysOf: (event) => [{ workspaceId: event.metadata.workspaceId }],
  apply: (event) => {
    const { policy, changedBy } = event.event.data;
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
