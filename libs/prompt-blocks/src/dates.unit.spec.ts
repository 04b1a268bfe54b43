import { DateTime } from 'luxon';
import { assertTimeZone, formatDayTime, formatNumeric, timeLeft } from './dates';

const paris = (iso: string): DateTime =>
  DateTime.fromISO(iso, { zone: 'utc' }).setZone('Europe/Paris');

describe('formatDayTime', () => {
  it('writes the day and time in words, with the year only when it is not the current one', () => {
    expect(formatDayTime(paris('2026-06-08T16:42:00Z'), 'fr', 2026)).toBe('8 juin à 18:42');
    expect(formatDayTime(paris('2026-06-08T16:42:00Z'), 'en', 2026)).toBe('June 8 at 18:42');
    expect(formatDayTime(paris('2025-08-15T07:05:00Z'), 'fr', 2026)).toBe('15 août 2025 à 09:05');
    expect(formatDayTime(paris('2025-08-15T07:05:00Z'), 'en', 2026)).toBe(
      'August 15, 2025 at 09:05',
    );
    expect(formatDayTime(paris('2026-02-01T23:00:00Z'), 'fr', 2026)).toBe('2 février à 00:00');
    expect(formatDayTime(paris('2026-01-31T23:00:00Z'), 'fr', 2026)).toBe('1er février à 00:00');
  });
});

describe('formatNumeric', () => {
  it('writes dd/MM/yyyy HH:mm in French and yyyy-MM-dd HH:mm in English', () => {
    expect(formatNumeric(paris('2026-06-02T12:10:00Z'), 'fr')).toBe('02/06/2026 14:10');
    expect(formatNumeric(paris('2026-06-02T12:10:00Z'), 'en')).toBe('2026-06-02 14:10');
  });
});

describe('timeLeft', () => {
  const now = DateTime.fromISO('2026-06-09T09:06:00Z', { zone: 'utc' });
  const plus = (seconds: number): DateTime => now.plus({ seconds });

  it('rounds minutes up under an hour and whole hours down from an hour on', () => {
    expect(timeLeft(now, plus(240))).toBe('4 min');
    expect(timeLeft(now, plus(1))).toBe('1 min');
    expect(timeLeft(now, plus(59 * 60))).toBe('59 min');
    expect(timeLeft(now, plus(59 * 60 + 30))).toBe('1 h');
    expect(timeLeft(now, plus(119 * 60))).toBe('1 h');
    expect(timeLeft(now, plus(120 * 60))).toBe('2 h');
  });

  it('is null once the expiry is reached', () => {
    expect(timeLeft(now, now)).toBeNull();
    expect(timeLeft(now, plus(-60))).toBeNull();
  });
});

describe('assertTimeZone', () => {
  it('accepts IANA zones and refuses others', () => {
    expect(() => assertTimeZone('Europe/Paris')).not.toThrow();
    expect(() => assertTimeZone('UTC')).not.toThrow();
    expect(() => assertTimeZone('Paris')).toThrow(RangeError);
  });
});
