import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';

const HOUR_MS = 3_600_000;
const MAX_CACHED = 50_000;

/** A zone's offset in minutes over one UTC hour, keyed "zone hour", for the hours it does not change in. */
const hourOffsets = new Map<string, number>();

/**
 * `at` with the wall-clock fields (year … minute, offset) `at.setZone(timeZone)` gives, several times
 * cheaper: luxon asks Intl for an IANA zone's offset at every instant (~8 µs here, and a context
 * converts dozens of dates), this asks once per zone and UTC hour. An hour's offset is kept only when it
 * is the same at its first and last millisecond, so the hour of a change is converted exactly, instant
 * by instant (no zone changes its offset twice within an hour). The result's zone is that fixed offset:
 * for formatting, not for arithmetic across a change. A zone that is not an IANA name goes to luxon.
 */
export function inZone(at: DateTime, timeZone: string): DateTime {
  const millis = at.toMillis();
  const hour = Math.floor(millis / HOUR_MS);
  const key = `${timeZone} ${hour}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    const zone = IANAZone.create(timeZone);
    if (!zone.isValid) return at.setZone(timeZone);
    offset = zone.offset(hour * HOUR_MS);
    if (offset !== zone.offset(hour * HOUR_MS + HOUR_MS - 1)) return at.setZone(zone);
    if (hourOffsets.size >= MAX_CACHED) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  return at.setZone(FixedOffsetZone.instance(offset));
}
