import { DateTime } from 'luxon';
import fc from 'fast-check';
import { assertTimeZone, formatDayTime, formatNumeric, inZone, timeLeft } from './dates';

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

describe('inZone', () => {
  const fields = (at: DateTime) => [
    at.year,
    at.month,
    at.day,
    at.hour,
    at.minute,
    at.second,
    at.offset,
  ];
  const ZONES = [
    'Europe/Paris',
    'America/New_York',
    'America/St_Johns',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'Africa/Casablanca',
    'UTC',
    'Etc/GMT+5',
    'UTC+3',
  ];

  it('gives the fields setZone gives, for any instant and zone (offset changes included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...ZONES),
        (millis, zone) => {
          const at = DateTime.fromMillis(millis, { zone: 'utc' });
          expect(fields(inZone(at, zone))).toEqual(fields(at.setZone(zone)));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('is exact minute by minute across a change of offset, both ways', () => {
    // Paris: 2026-03-29 01:00 UTC (+1 → +2), 2026-10-25 01:00 UTC (+2 → +1); Lord Howe moves 30 minutes.
    for (const [zone, change] of [
      ['Europe/Paris', '2026-03-29T01:00:00Z'],
      ['Europe/Paris', '2026-10-25T01:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
      ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
    ] as const) {
      const start = DateTime.fromISO(change, { zone: 'utc' }).minus({ minutes: 90 });
      for (let minute = 0; minute <= 180; minute += 1) {
        const at = start.plus({ minutes: minute, milliseconds: minute % 2 ? 999 : 0 });
        expect(fields(inZone(at, zone))).toEqual(fields(at.setZone(zone)));
      }
    }
  });
});
