import type { DecidedBy } from './memory-events';
import type { MemoryKind } from './memory-kinds';

/** An approved memory as the cap sees it: its kind and who approved it. */
export type ApprovedMemory = Readonly<{ kind: MemoryKind; approvedBy: DecidedBy }>;

/**
 * Whether the per-user cap may evict this approved memory. Seed 000 caps each user with an LRU
 * eviction of facts only; seed 002 promises that approved memories never expire unless deleted by
 * hand. Both hold: what an admin approved (review mode admin) is never evicted, so the cap evicts only
 * facts approved automatically (the policy) or by their own user. The one rule: the memory decider
 * refuses any other eviction, and the memories projection records it per row for the cap's query.
 */
export function isEvictableByCap(memory: ApprovedMemory): boolean {
  return memory.kind === 'fact' && !isAdminDecision(memory.approvedBy);
}

function isAdminDecision(by: DecidedBy): boolean {
  return by.kind === 'person' && by.role === 'admin';
}
