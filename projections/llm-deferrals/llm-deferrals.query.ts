import { LessThanOrEqual, type EntityManager } from 'typeorm';
import { LlmDeferral } from './llm-deferrals.entity';

/** A user's work held back by the budget, oldest first. */
export async function findLlmDeferrals(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<LlmDeferral[]> {
  return manager.find(LlmDeferral, {
    where: { workspaceId, userId },
    order: { position: 'ASC' },
  });
}

/** Every user's deferred work whose day has come, oldest first (the projector role sees them all). */
export async function findDueLlmDeferrals(
  manager: EntityManager,
  now: Date,
  limit: number,
): Promise<LlmDeferral[]> {
  return manager.find(LlmDeferral, {
    where: { until: LessThanOrEqual(now) },
    order: { until: 'ASC', position: 'ASC' },
    take: limit,
  });
}

/** How many deferred works are due (the scheduler backlog metric). */
export async function countDueLlmDeferrals(manager: EntityManager, now: Date): Promise<number> {
  return manager.count(LlmDeferral, { where: { until: LessThanOrEqual(now) } });
}
