import { DateTime } from 'luxon';
import {
  isOverBudget,
  llmUsageDay,
  llmUsageStream,
  nextUsageDayStart,
  usageWindowStart,
} from './llm-usage-day';

const at = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' });

describe('the LLM usage day', () => {
  it('is the day in the policy’s time zone, not in UTC', () => {
    // 23:30 UTC on 1 June is already 2 June in Paris (UTC+2 in summer), still 1 June in New York.
    expect(llmUsageDay(at('2026-06-01T23:30:00Z'), 'Europe/Paris')).toBe('2026-06-02');
    expect(llmUsageDay(at('2026-06-01T23:30:00Z'), 'America/New_York')).toBe('2026-06-01');
    expect(llmUsageDay(at('2026-06-01T23:30:00Z'), 'UTC')).toBe('2026-06-01');
  });

  it('ends at the next local midnight, given in UTC (daylight saving included)', () => {
    expect(nextUsageDayStart(at('2026-06-01T10:00:00Z'), 'Europe/Paris')).toBe(
      '2026-06-01T22:00:00.000Z',
    );
    // Winter: Paris is UTC+1.
    expect(nextUsageDayStart(at('2026-01-15T10:00:00Z'), 'Europe/Paris')).toBe(
      '2026-01-15T23:00:00.000Z',
    );
    // The night clocks go forward (29 March 2026): the next day still starts at local midnight.
    expect(nextUsageDayStart(at('2026-03-28T12:00:00Z'), 'Europe/Paris')).toBe(
      '2026-03-28T23:00:00.000Z',
    );
    expect(nextUsageDayStart(at('2026-03-29T12:00:00Z'), 'Europe/Paris')).toBe(
      '2026-03-29T22:00:00.000Z',
    );
  });

  it('opens a window of N days with today as its last', () => {
    expect(usageWindowStart(at('2026-06-30T10:00:00Z'), 'Europe/Paris', 30)).toBe('2026-06-01');
    expect(usageWindowStart(at('2026-06-30T10:00:00Z'), 'Europe/Paris', 1)).toBe('2026-06-30');
  });

  it('is over budget once the calls of the day reach the limit; no limit, never', () => {
    expect(isOverBudget(2, 1)).toBe(false);
    expect(isOverBudget(2, 2)).toBe(true);
    expect(isOverBudget(2, 3)).toBe(true);
    expect(isOverBudget(undefined, 10_000)).toBe(false);
  });

  it('keeps one ledger stream per user and day', () => {
    expect(llmUsageStream('w1', 'alice', '2026-06-01')).toBe('w1/alice/llm-usage/2026-06-01');
  });
});
