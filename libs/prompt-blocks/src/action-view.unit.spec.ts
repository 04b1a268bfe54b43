import { DateTime } from 'luxon';
import type { ActionView } from './action-view';
import { lastActivityMillis, parseInstant, statusReachedAt } from './action-view';

const base: ActionView = {
  actionId: 'a1',
  tool: 'gmail_send',
  target: null,
  summary: '',
  status: 'executed',
  requestedVia: 'web',
  steps: [],
  createdAt: '2026-06-08T10:00:00Z',
  expiresAt: null,
};

describe('parseInstant', () => {
  it('reads ISO strings, offset-less ones as UTC, and gives null for anything else', () => {
    expect(parseInstant('2026-06-08T12:00:00+02:00')?.toMillis()).toBe(
      Date.parse('2026-06-08T10:00:00Z'),
    );
    expect(parseInstant('2026-06-08T10:00:00')?.toMillis()).toBe(
      Date.parse('2026-06-08T10:00:00Z'),
    );
    expect(parseInstant('yesterday')).toBeNull();
    expect(parseInstant(null)).toBeNull();
  });

  it("reads the reads' form (toISOString's) as luxon does, impossible dates included", () => {
    for (const iso of [
      '2026-03-01T08:59:12.345Z',
      '2024-02-29T23:59:59.999Z',
      '1969-12-31T23:59:59.000Z',
      '2026-02-30T10:00:00.000Z',
      '2026-06-08T24:00:00.000Z',
      '2026-13-01T10:00:00.000Z',
    ]) {
      const luxon = DateTime.fromISO(iso, { zone: 'utc' });
      const parsed = parseInstant(iso);
      expect([parsed?.toMillis(), parsed?.zoneName]).toEqual(
        luxon.isValid ? [luxon.toMillis(), 'UTC'] : [undefined, undefined],
      );
    }
  });
});

describe('statusReachedAt', () => {
  it('takes the latest step with the current status, else the latest step', () => {
    const action: ActionView = {
      ...base,
      steps: [
        { status: 'executed', channel: null, at: '2026-06-08T10:05:00Z' },
        { status: 'confirmed', channel: 'web', at: '2026-06-08T10:01:00Z' },
        { status: 'notified', channel: 'email', at: '2026-06-08T10:09:00Z' },
      ],
    };
    expect(statusReachedAt(action)?.toISO()).toBe('2026-06-08T10:05:00.000Z');
    expect(statusReachedAt({ ...action, status: 'failed' })?.toISO()).toBe(
      '2026-06-08T10:09:00.000Z',
    );
  });

  it('dates an expired action by its expiry when no step says more, else knows nothing', () => {
    expect(
      statusReachedAt({ ...base, status: 'expired', expiresAt: '2026-06-08T10:15:00Z' })?.toISO(),
    ).toBe('2026-06-08T10:15:00.000Z');
    expect(statusReachedAt(base)).toBeNull();
  });
});

describe('lastActivityMillis', () => {
  it('is the latest of the request and its steps, ignoring unreadable dates', () => {
    expect(
      lastActivityMillis({
        ...base,
        steps: [
          { status: 'executed', channel: null, at: '2026-06-09T08:00:00Z' },
          { status: 'confirmed', channel: null, at: 'garbage' },
        ],
      }),
    ).toBe(Date.parse('2026-06-09T08:00:00Z'));
    expect(lastActivityMillis({ ...base, createdAt: 'garbage' })).toBe(Number.NEGATIVE_INFINITY);
  });
});
