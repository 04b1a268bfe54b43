import type { MemoryStatus } from './memory-decider';

export type StoredMemoryStatus = Exclude<MemoryStatus, 'absent'>;

/** The statuses a memory is reported with (API, console, as-of view): seed 002's, and seed 000's. */
export const REPORTED_MEMORY_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'deleted',
  'evicted',
  'superseded',
] as const;
export type ReportedMemoryStatus = (typeof REPORTED_MEMORY_STATUSES)[number];

/** The reason of a rejection nobody decided: the candidate waited past the policy's pendingTtlDays. */
export const EXPIRED_REASON = 'expired';

export type MemoryReport = Readonly<{ status: ReportedMemoryStatus; reason?: string }>;

/**
 * Seed 002: "Les mémoires en attente expirées sont automatiquement rejetées". Engram keeps the expiry
 * as its own event (`MemoryExpired`) and state, because they behave apart: an expired candidate may
 * be detected anew, one a person rejected is never proposed again. Outside, it is what the seed
 * calls it: rejected, with the reason `expired`. `rejectionReason` is a reviewer's, when they gave one.
 */
export function reportMemoryStatus(
  status: StoredMemoryStatus,
  rejectionReason?: string | null,
): MemoryReport {
  switch (status) {
    case 'expired':
      return { status: 'rejected', reason: EXPIRED_REASON };
    case 'rejected':
      return rejectionReason ? { status, reason: rejectionReason } : { status };
    default:
      return { status };
  }
}

/**
 * The stored statuses a status filter stands for: `rejected` includes the expired candidates;
 * `expired`, still accepted from earlier clients, only them.
 */
export function storedStatusesOf(
  filter: ReportedMemoryStatus | typeof EXPIRED_REASON,
): StoredMemoryStatus[] {
  return filter === 'rejected' ? ['rejected', 'expired'] : [filter];
}
