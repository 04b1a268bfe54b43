import { DateTime } from 'luxon';

/** Time comes in from outside so that deciders, projections and schedulers replay identically. */
export interface Clock {
  now(): DateTime;
}

export const systemClock: Clock = { now: () => DateTime.utc() };

export function fixedClock(
  iso: string,
): Clock & { set(iso: string): void; advance(ms: number): void } {
  let current = DateTime.fromISO(iso, { zone: 'utc' });
  return {
    now: () => current,
    set: (next) => {
      current = DateTime.fromISO(next, { zone: 'utc' });
    },
    advance: (ms) => {
      current = current.plus({ milliseconds: ms });
    },
  };
}
