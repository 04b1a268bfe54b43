import type { Locale } from '@engram/domain';
import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';

// Month names are written out here rather than taken from Intl, so the output does not depend on
// the ICU data Node was built with.
const MONTHS: Readonly<Record<Locale, readonly string[]>> = {
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
};

const HOUR_MS = 3_600_000;
const MAX_CACHED = 50_000;
const knownZones = new Set<string>();

/** Throws a RangeError unless `timeZone` is a zone luxon knows (an IANA name such as Europe/Paris). */
export function assertTimeZone(timeZone: string): void {
  if (knownZones.has(timeZone)) return;
  if (!DateTime.fromMillis(0, { zone: timeZone }).isValid) {
    throw new RangeError(`Unknown time zone: ${timeZone}`);
  }
  if (knownZones.size < MAX_CACHED) knownZones.add(timeZone);
}

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

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

function clock(at: DateTime): string {
  return `${pad(at.hour)}:${pad(at.minute)}`;
}

/**
 * A day and time in words, in `at`'s zone, 24-hour clock: "8 juin à 18:42" / "June 8 at 18:42";
 * the year is added when it is not `currentYear` ("8 juin 2025 à 18:42" / "June 8, 2025 at 18:42").
 * French writes the first of the month "1er".
 */
export function formatDayTime(at: DateTime, locale: Locale, currentYear: number): string {
  const month = MONTHS[locale][at.month - 1] ?? '';
  const year = at.year === currentYear ? '' : String(at.year);
  if (locale === 'fr') {
    const day = at.day === 1 ? '1er' : String(at.day);
    return `${day} ${month}${year ? ` ${year}` : ''} à ${clock(at)}`;
  }
  return `${month} ${at.day}${year ? `, ${year}` : ''} at ${clock(at)}`;
}

/**
 * A date and time in figures, in `at`'s zone: "02/06/2026 14:10" in French; in English the
 * ISO-like "2026-06-02 14:10", since 06/02 reads as 6 February to half the English readers.
 */
export function formatNumeric(at: DateTime, locale: Locale): string {
  return locale === 'fr'
    ? `${pad(at.day)}/${pad(at.month)}/${pad(at.year, 4)} ${clock(at)}`
    : `${pad(at.year, 4)}-${pad(at.month)}-${pad(at.day)} ${clock(at)}`;
}

/**
 * What is left before `expiresAt`, from `now`: minutes rounded up under an hour ("4 min"), whole
 * hours rounded down from an hour on ("2 h": never more time than there is); null once past.
 */
export function timeLeft(now: DateTime, expiresAt: DateTime): string | null {
  const ms = expiresAt.toMillis() - now.toMillis();
  if (ms <= 0) return null;
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.max(1, Math.floor(ms / 3_600_000))} h`;
}
