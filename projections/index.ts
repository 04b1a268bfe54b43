import type { MigrationClass } from '@engram/database';
import { userStreamStatsReadModel } from './user-stream-stats';
import { sessionMessagesReadModel } from './session-messages';
import { sessionsReadModel } from './sessions';
import { memoriesReadModel } from './memories';
import { memorySettingsReadModel } from './memory-settings';
import { identityCardsReadModel } from './identity-cards';
import { workspacePoliciesReadModel } from './workspace-policies';
import { agentSettingsReadModel } from './agent-settings';
import { seenAgentsReadModel } from './seen-agents';
import { actionsReadModel } from './actions';
import { activityReadModel } from './activity';
import { memoryOwnersReadModel } from './memory-owners';
import { llmUsageReadModel } from './llm-usage';
import { llmDeferralsReadModel } from './llm-deferrals';
import { agentKeysReadModel } from './agent-keys';
import { webhooksReadModel } from './webhooks';
import type { AnyReadModel } from './read-model';
import { isPerUser, type AnyProjection } from './runner/projection';
import { WORKSPACE_OWNER, partitionNameFor, partitionNames } from './runner/partitions';

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
export * from './runner/aborted-or-after';
export * from './runner/parking-lot';
export * from './runner/owner-events';
export * from './runner/iso-instant';

export * from './user-stream-stats';
export * from './session-messages';
export * from './sessions';
export * from './memories';
export * from './memory-settings';
export * from './identity-cards';
export * from './workspace-policies';
export * from './agent-settings';
export * from './seen-agents';
export * from './actions';
export * from './activity';
export * from './memory-owners';
export * from './llm-usage';
export * from './llm-deferrals';
export * from './agent-keys';
export * from './webhooks';
export * from './read-model';

/** Every read model, each as its folder exports it. The worker runs them in this order. */
export const READ_MODELS: readonly AnyReadModel[] = [
  userStreamStatsReadModel,
  sessionMessagesReadModel,
  sessionsReadModel,
  memoriesReadModel,
  memorySettingsReadModel,
  identityCardsReadModel,
  workspacePoliciesReadModel,
  agentSettingsReadModel,
  seenAgentsReadModel,
  actionsReadModel,
  activityReadModel,
  memoryOwnersReadModel,
  llmUsageReadModel,
  llmDeferralsReadModel,
  agentKeysReadModel,
  webhooksReadModel,
];
/** Every read model: the worker runs these, the data source maps their entities, migrations create them. */
export const PROJECTIONS: readonly AnyProjection[] = READ_MODELS.map((model) => model.projection);
export const READ_MODEL_ENTITIES = READ_MODELS.map((model) => model.entity);
/** In the order TypeORM runs them: by the timestamp that ends each class name. */
export const READ_MODEL_MIGRATIONS = READ_MODELS.flatMap((model) => model.migrations).sort(
  (a, b) => timestampOf(a) - timestampOf(b),
);

function timestampOf(migration: MigrationClass): number {
  return Number(/\d+$/u.exec(migration.name)?.[0]);
}
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
