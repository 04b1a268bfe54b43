import { readModel } from '../read-model';
import { WorkspacePolicy } from './workspace-policies.entity';
import { WorkspacePolicies1764400003000 } from './workspace-policies.migration';
import { LlmBudgetPolicy1764400016102 } from './llm-budget-policy.migration';
import { workspacePoliciesProjection } from './workspace-policies.projection';

export * from './workspace-policies.entity';
export * from './workspace-policies.projection';
export * from './workspace-policies.query';

export const workspacePoliciesReadModel = readModel({
  projection: workspacePoliciesProjection,
  entity: WorkspacePolicy,
  migrations: [WorkspacePolicies1764400003000, LlmBudgetPolicy1764400016102],
});
