import { DateTime } from 'luxon';
import { inZone } from '../in-zone';
import { userStream } from '../streams';

/** A user's ledger of one day: `{ws}/{user}/llm-usage/{yyyy-mm-dd}`, so no stream grows without bound. */
export function llmUsageStream(workspaceId: string, userId: string, day: string): string {
  return userStream(workspaceId, userId, 'llm-usage', day);
}

/**
 * The day (yyyy-mm-dd) an instant falls on in the workspace policy's time zone (the zone's offset
 * asked once per hour: luxon's per instant was 0.7 % of the worker's CPU, BENCHMARKS round 24).
 */
export function llmUsageDay(instant: DateTime, timeZone: string): string {
  return inZone(instant, timeZone).toISODate()!;
}

/** When the day of `instant` ends in `timeZone`: deferred work waits until then (ISO, UTC). */
export function nextUsageDayStart(instant: DateTime, timeZone: string): string {
  return instant.setZone(timeZone).startOf('day').plus({ days: 1 }).toUTC().toISO()!;
}

/** The first day of a window of `days` days ending with the day of `instant` (today included). */
export function usageWindowStart(instant: DateTime, timeZone: string, days: number): string {
  return instant
    .setZone(timeZone)
    .minus({ days: days - 1 })
    .toISODate()!;
}

/** Past its budget (a limit of calls per user per day; none when absent), the work waits. */
export function isOverBudget(limit: number | undefined, usedToday: number): boolean {
  return limit !== undefined && usedToday >= limit;
}

/** How the ledger names the work a call was for: ids only, never text. */
export const llmCallCause = {
  message: (messageId: string) => `message/${messageId}`,
  session: (sessionId: string) => `session/${sessionId}`,
  summaryRange: (sessionId: string, throughPosition: string) =>
    `session/${sessionId}/${throughPosition}`,
  identityCard: (basedOnPosition: string) => `memories/${basedOnPosition}`,
};
