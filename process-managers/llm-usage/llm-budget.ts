import { isOverBudget, llmUsageDay, type MemoryPolicy } from '@engram/domain';
import { countBudgetedCalls } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { waitForProjections, type ReadOwner } from '../runner/wait-for-projections';

/**
 * Whether `owner` has spent today's budget of extraction and summary calls (none in the policy:
 * never). The ledger is read at the head of the store, so the calls this user's reactions have just
 * recorded count. Extraction and summaries run side by side, so a day may end a call or two past the
 * limit (one per reaction in flight), never more: the budget bounds spending, it is not a lock.
 */
export async function isBudgetSpent(
  deps: ProcessManagerDependencies,
  owner: ReadOwner,
  policy: MemoryPolicy,
  signal?: AbortSignal,
): Promise<boolean> {
  const limit = policy.llmCallsPerUserPerDay;
  if (limit === undefined) return false;
  await waitForProjections(deps, ['llm_usage'], owner, await deps.store.headPosition(), signal);
  const day = llmUsageDay(deps.clock.now(), policy.timeZone);
  const used = await countBudgetedCalls(
    deps.dataSource.manager,
    owner.workspaceId,
    owner.userId,
    day,
  );
  return isOverBudget(limit, used);
}
