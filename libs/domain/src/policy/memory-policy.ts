import type { ReviewMode } from '../memories/memory-decider';
import type { Locale } from '../memories/memory-kinds';

/** Per-workspace memory policy (API.md, memory-policy). Seed 000's behaviour is the default. */
export type MemoryPolicy = Readonly<{
  reviewMode: ReviewMode;
  autoApproveAbove?: number | undefined;
  pendingTtlDays: number;
  liveWindow: number;
  summaryBatch: number;
  userMemoryCap: number;
  timeZone: string;
  locale: Locale;
  /**
   * At most this many extraction and summary calls per user per day (in `timeZone`); past it the
   * work waits until the next day. Absent: no budget.
   */
  llmCallsPerUserPerDay?: number | undefined;
}>;

export const DEFAULT_MEMORY_POLICY: MemoryPolicy = {
  reviewMode: 'auto',
  pendingTtlDays: 7,
  liveWindow: 20,
  summaryBatch: 10,
  userMemoryCap: 200,
  timeZone: 'Europe/Paris',
  locale: 'fr',
};
