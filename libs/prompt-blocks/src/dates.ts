import type { Locale } from '@engram/domain';
import { DateTime } from 'luxon';

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
