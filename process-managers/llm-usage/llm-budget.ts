import { isOverBudget, llmUsageDay, llmUsageStream, type MemoryPolicy } from '@engram/domain';
import { readStreamOrEmpty, type EventStore } from '@engram/event-store';
import { countBudgetedCalls } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { waitForProjections, type ReadOwner } from '../runner/wait-for-projections';

/**
 * Whether `owner` has spent today's budget of extraction and summary calls (none in the policy:
 * never). The ledger's read model is read once it holds the last entry of the owner's ledger stream
 * of the day, so the calls this user's reactions have just recorded count. Extraction and summaries
 * run side by side, so a day may end a call or two past the limit (one per reaction in flight), never
 * more: the budget bounds spending, it is not a lock.
 *
 * It waits for the ledger's last entry, not for the head of the store: under load the head is always
 * a projection's lag ahead, and waiting for it made every reaction wait that long in turn — at 1,000
 * messages a second the extraction and summary partitions fell behind by all of them (round 20).
 */
export async function isBudgetSpent(
  deps: ProcessManagerDependencies,
  owner: ReadOwner,
  policy: MemoryPolicy,
  signal?: AbortSignal,
): Promise<boolean> {
  const limit = policy.llmCallsPerUserPerDay;
  if (limit === undefined) return false;
  const day = llmUsageDay(deps.clock.now(), policy.timeZone);
  const recorded = await lastLedgerEntry(deps.store, owner, day);
  if (recorded > 0n) await waitForProjections(deps, ['llm_usage'], owner, recorded, signal);
  const used = await countBudgetedCalls(
    deps.dataSource.manager,
    owner.workspaceId,
    owner.userId,
    day,
  );
  return isOverBudget(limit, used);
}

/** The position of the owner's last ledger entry of `day`; 0 when there is none yet (nothing to wait for). */
async function lastLedgerEntry(store: EventStore, owner: ReadOwner, day: string): Promise<bigint> {
  const stream = llmUsageStream(owner.workspaceId, owner.userId, day);
  const [last] = await readStreamOrEmpty(store, stream, { direction: 'backwards', maxCount: 1 });
  return last?.globalPosition ?? 0n;
}
