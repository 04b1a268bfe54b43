import { DateTime } from 'luxon';
import fc from 'fast-check';
import { inZone } from './in-zone';

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
