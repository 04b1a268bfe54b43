import type { Locale } from '@engram/domain';
import { DateTime } from 'luxon';

/** A date found in a message, resolved against the message time in the user's zone. */
export type DueDate = Readonly<{
  at: DateTime;
  /** where the day expression and, when given, the time expression are in the text */
  spans: readonly Readonly<{ start: number; end: number }>[];
  /** "the 15th" precisely, as opposed to "next week" */
  precise: boolean;
  hasTime: boolean;
  /** the message time, in the user's zone */
  base: DateTime;
}>;

export type TimeOfDay = Readonly<{ hour: number; minute: number }>;

/** Without a stated time, a due date is at 09:00 local: early enough for a reminder to be useful. */
export const DEFAULT_DUE_HOUR = 9;

/** The message time in the user's zone; UTC when the zone is unknown. */
export function messageTime(occurredAt: string, timeZone: string): DateTime {
  const parsed = DateTime.fromISO(occurredAt, { setZone: true });
  const base = parsed.isValid ? parsed : DateTime.utc();
  const zoned = base.setZone(timeZone);
  return zoned.isValid ? zoned : base.toUTC();
}

export function atTime(day: DateTime, time: TimeOfDay | undefined): DateTime {
  return day.set({
    hour: time?.hour ?? DEFAULT_DUE_HOUR,
    minute: time?.minute ?? 0,
    second: 0,
    millisecond: 0,
  });
}

/** Replaces the date expressions of the text by an absolute label ("le vendredi 12 juin"). */
export function withAbsoluteDate(text: string, due: DueDate, language: Locale): string {
  const spans = [...due.spans].sort((a, b) => a.start - b.start);
  const first = spans[0];
  if (first === undefined) return text;
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += text.slice(cursor, span.start);
    if (span === first) {
      // "by Friday" keeps its preposition: "by Friday, June 12", not "by on Friday, June 12".
      const afterPreposition = /\b(by|before|until|for|after|from)\s*$/i.test(result);
      const label = dateLabel(due, language);
      result += afterPreposition ? label.replace(/^on /, '') : label;
      // "Demain j'ai…" → "Le mardi 9 juin, j'ai…"
      if (span.start === 0 && !/^\s*,/.test(text.slice(span.end))) result += ',';
    }
    cursor = span.end;
  }
  result += text.slice(cursor);
  return result.replace(/\s+([,.;:!?])/g, '$1').replace(/\s{2,}/g, ' ');
}

export function dateLabel(due: DueDate, language: Locale): string {
  const at = due.at.setLocale(language);
  const sameYear = at.year === due.base.year;
  if (language === 'fr') {
    const day = at.toFormat(sameYear ? 'cccc d LLLL' : 'cccc d LLLL yyyy');
    const time = due.hasTime ? ` à ${at.toFormat(at.minute === 0 ? "H'h'" : "H'h'mm")}` : '';
    return `le ${day}${time}`;
  }
  const day = at.toFormat(sameYear ? 'cccc, LLLL d' : 'cccc, LLLL d, yyyy');
  const time = due.hasTime ? ` at ${at.toFormat(at.minute === 0 ? 'h a' : 'h:mm a')}` : '';
  return `on ${day}${time}`;
}
