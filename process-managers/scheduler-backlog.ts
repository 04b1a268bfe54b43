import { DEFAULT_MEMORY_POLICY } from '@engram/domain';
import {
  countExpiredPendingActions,
  countExpiredPendingMemories,
  countDueLlmDeferrals,
  countIdentityCardsToRegenerate,
} from '@engram/projections';
import type { ProcessManagerDependencies } from './dependencies';

export type SchedulerBacklog = Readonly<{
  memory_expiry: number;
  action_expiry: number;
  identity_cards: number;
  deferred_llm_work: number;
}>;

/**
 * The work the scheduled jobs have due and not done yet: the size of the work lists they read
 * (`expirePendingMemories`, `expirePendingActions`, `regenerateIdentityCards`,
 * `runDeferredLlmWork`), with their clock and cut-offs. Needs the projector role, which sees every user.
 */
export async function schedulerBacklog(
  deps: Pick<ProcessManagerDependencies, 'dataSource' | 'clock'>,
  identityCardDebounceSeconds: number,
): Promise<SchedulerBacklog> {
  const now = deps.clock.now().toUTC();
  const manager = deps.dataSource.manager;
  const [memoryExpiry, actionExpiry, identityCards, deferredLlmWork] = await Promise.all([
    countExpiredPendingMemories(manager, now.toJSDate(), DEFAULT_MEMORY_POLICY.pendingTtlDays),
    countExpiredPendingActions(manager, now.toJSDate()),
    countIdentityCardsToRegenerate(
      manager,
      now.minus({ seconds: identityCardDebounceSeconds }).toJSDate(),
    ),
    countDueLlmDeferrals(manager, now.toJSDate()),
  ]);
  return {
    memory_expiry: memoryExpiry,
    action_expiry: actionExpiry,
    identity_cards: identityCards,
    deferred_llm_work: deferredLlmWork,
  };
}
