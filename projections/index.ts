import { IdentityCard } from './identity-cards/identity-cards.entity';
import { IdentityCards1764400002004 } from './identity-cards/identity-cards.migration';
import { identityCardsProjection } from './identity-cards/identity-cards.projection';
import { MemoryRecord } from './memories/memories.entity';
import { Memories1764400002002 } from './memories/memories.migration';
import { MemoriesEvictable1764400005010 } from './memories/memories-evictable.migration';
import { memoriesProjection } from './memories/memories.projection';
import { MemorySettings } from './memory-settings/memory-settings.entity';
import { MemorySettings1764400002003 } from './memory-settings/memory-settings.migration';
import { memorySettingsProjection } from './memory-settings/memory-settings.projection';
import { isPerUser, type AnyProjection } from './runner/projection';
import { WORKSPACE_OWNER, partitionNameFor, partitionNames } from './runner/partitions';
import { MemoryOwner } from './memory-owners/memory-owners.entity';
import { MemoryOwners1764400003002 } from './memory-owners/memory-owners.migration';
import { memoryOwnersProjection } from './memory-owners/memory-owners.projection';
import { AgentSetting } from './agent-settings/agent-settings.entity';
import { AgentSettings1764400003001 } from './agent-settings/agent-settings.migration';
import { agentSettingsProjection } from './agent-settings/agent-settings.projection';
import { SeenAgent } from './seen-agents/seen-agents.entity';
import { SeenAgents1764400005011 } from './seen-agents/seen-agents.migration';
import { seenAgentsProjection } from './seen-agents/seen-agents.projection';
import { WorkspacePolicy } from './workspace-policies/workspace-policies.entity';
import { WorkspacePolicies1764400003000 } from './workspace-policies/workspace-policies.migration';
import { workspacePoliciesProjection } from './workspace-policies/workspace-policies.projection';
import { SessionMessage } from './session-messages/session-messages.entity';
import { SessionMessages1764400002000 } from './session-messages/session-messages.migration';
import { sessionMessagesProjection } from './session-messages/session-messages.projection';
import { Session } from './sessions/sessions.entity';
import { Sessions1764400002001 } from './sessions/sessions.migration';
import { sessionsProjection } from './sessions/sessions.projection';
import { UserStreamStats } from './user-stream-stats/user-stream-stats.entity';
import { UserStreamStats1764400001000 } from './user-stream-stats/user-stream-stats.migration';
import { userStreamStatsProjection } from './user-stream-stats/user-stream-stats.projection';
import { ActionRecord } from './actions/actions.entity';
import { Actions1764400004100 } from './actions/actions.migration';
import { actionsProjection } from './actions/actions.projection';
import { ActivityEvent } from './activity/activity.entity';
import { ActivityEvents1764400004101 } from './activity/activity.migration';
import { ActivityDetails1764400016200 } from './activity/activity-details.migration';
import { activityProjection } from './activity/activity.projection';
import { LlmUsage } from './llm-usage/llm-usage.entity';
import { LlmUsage1764400016100 } from './llm-usage/llm-usage.migration';
import { llmUsageProjection } from './llm-usage/llm-usage.projection';
import { LlmDeferral } from './llm-deferrals/llm-deferrals.entity';
import { LlmDeferrals1764400016101 } from './llm-deferrals/llm-deferrals.migration';
import { llmDeferralsProjection } from './llm-deferrals/llm-deferrals.projection';
import { LlmBudgetPolicy1764400016102 } from './workspace-policies/llm-budget-policy.migration';

export * from './runner/projection';
export * from './runner/projection-runner';
export * from './runner/shared-event-feed';
export * from './runner/checkpoint-advance';
export * from './runner/checkpoint-committer';
export * from './runner/rebuild';
export * from './runner/checkpoints';
export * from './runner/partitions';
export * from './runner/partition-count';
export * from './runner/parked-events';
export * from './runner/parking-lot';
export * from './runner/owner-events';
export * from './user-stream-stats/user-stream-stats.entity';
export * from './user-stream-stats/user-stream-stats.projection';
export * from './user-stream-stats/user-stream-stats.query';
export * from './session-messages/session-messages.entity';
export * from './session-messages/session-messages.projection';
export * from './session-messages/session-messages.query';
export * from './sessions/sessions.entity';
export * from './sessions/sessions.projection';
export * from './sessions/sessions.query';
export * from './memories/memories.entity';
export * from './memories/memories.projection';
export * from './memories/memories.query';
export * from './memory-settings/memory-settings.entity';
export * from './memory-settings/memory-settings.projection';
export * from './memory-settings/memory-settings.query';
export * from './identity-cards/identity-cards.entity';
export * from './identity-cards/identity-cards.projection';
export * from './identity-cards/identity-cards.query';
export * from './memory-owners/memory-owners.entity';
export * from './memory-owners/memory-owners.projection';
export * from './memory-owners/memory-owners.query';
export * from './workspace-policies/workspace-policies.entity';
export * from './workspace-policies/workspace-policies.projection';
export * from './workspace-policies/workspace-policies.query';
export * from './agent-settings/agent-settings.entity';
export * from './agent-settings/agent-settings.projection';
export * from './agent-settings/agent-settings.query';
export * from './seen-agents/seen-agents.entity';
export * from './seen-agents/seen-agents.projection';
export * from './seen-agents/workspace-agents.query';
export * from './actions/actions.entity';
export * from './actions/actions.projection';
export * from './actions/actions.query';
export * from './activity/activity.entity';
export * from './activity/activity.projection';
export * from './activity/activity.query';
export * from './llm-usage/llm-usage.entity';
export * from './llm-usage/llm-usage.projection';
export * from './llm-usage/llm-usage.query';
export * from './llm-deferrals/llm-deferrals.entity';
export * from './llm-deferrals/llm-deferrals.projection';
export * from './llm-deferrals/llm-deferrals.query';

/** Every read model: the worker runs these, the data source maps their entities, migrations create them. */
export const PROJECTIONS: readonly AnyProjection[] = [
  userStreamStatsProjection,
  sessionMessagesProjection,
  sessionsProjection,
  memoriesProjection,
  memorySettingsProjection,
  identityCardsProjection,
  workspacePoliciesProjection,
  agentSettingsProjection,
  seenAgentsProjection,
  actionsProjection,
  activityProjection,
  memoryOwnersProjection,
  llmUsageProjection,
  llmDeferralsProjection,
];
export const READ_MODEL_ENTITIES = [
  UserStreamStats,
  SessionMessage,
  Session,
  MemoryRecord,
  MemorySettings,
  IdentityCard,
  WorkspacePolicy,
  AgentSetting,
  SeenAgent,
  ActionRecord,
  ActivityEvent,
  MemoryOwner,
  LlmUsage,
  LlmDeferral,
];
export const READ_MODEL_MIGRATIONS = [
  UserStreamStats1764400001000,
  SessionMessages1764400002000,
  Sessions1764400002001,
  Memories1764400002002,
  MemorySettings1764400002003,
  IdentityCards1764400002004,
  WorkspacePolicies1764400003000,
  AgentSettings1764400003001,
  Actions1764400004100,
  ActivityEvents1764400004101,
  MemoryOwners1764400003002,
  LlmUsage1764400016100,
  LlmDeferrals1764400016101,
  LlmBudgetPolicy1764400016102,
  MemoriesEvictable1764400005010,
  SeenAgents1764400005011,
  ActivityDetails1764400016200,
];
export * from './runner/wait-for-checkpoints';
export * from './runner/committed-checkpoints';
export { CONTEXT_READ_MODELS } from './context-read-models';

/**
 * The checkpoints that must reach a position before `owner`'s rows of the read models `names` reflect
 * it: for each, the one partition holding that owner (workspace-level read models by workspace).
 */
export function checkpointsFor(
  names: readonly string[],
  owner: Readonly<{ workspaceId: string; userId: string }>,
  partitions: number,
): string[] {
  return names.map((name) => {
    const projection = PROJECTIONS.find((candidate) => candidate.name === name);
    const workspaceLevel = projection !== undefined && !isPerUser(projection);
    const of = workspaceLevel ? { workspaceId: owner.workspaceId, userId: WORKSPACE_OWNER } : owner;
    return partitionNameFor(name, of, partitions);
  });
}

/** Every partition's checkpoint of the read models `names`: all of them reach a position for everyone. */
export function allCheckpointsOf(names: readonly string[], partitions: number): string[] {
  return names.flatMap((name) => partitionNames(name, partitions));
}
