import type { DateTime } from 'luxon';
import { atTime, type DueDate, type TimeOfDay } from './due-date';

export type DayResolution = Readonly<{
  day: DateTime;
  /** a time implied by the expression itself ("demain soir", "dans 2 heures") */
  time?: TimeOfDay;
  precise: boolean;
}>;

export type DayPattern = Readonly<{
  pattern: RegExp;
  resolve: (match: RegExpExecArray, base: DateTime) => DayResolution | undefined;
}>;

export type TimePattern = Readonly<{
  pattern: RegExp;
  resolve: (match: RegExpExecArray) => TimeOfDay | undefined;
}>;

type Found<T> = Readonly<{ start: number; end: number; value: T }>;

/**
 * The earliest day expression of the text (the longest on a tie) and the first time expression
 * outside it, resolved against the message time. A time alone means today, or tomorrow once passed.
 */
export function matchDueDate(
  text: string,
  base: DateTime,
  days: readonly DayPattern[],
  times: readonly TimePattern[],
): DueDate | undefined {
  const lower = text.toLowerCase();
  const day = earliest(lower, days, (pattern, match) => pattern.resolve(match, base));
  const time = earliest(
    lower,
    times,
    (pattern, match) => pattern.resolve(match),
    (start, end) => day === undefined || end <= day.start || start >= day.end,
  );
  if (day === undefined && time === undefined) return undefined;
  const spans = [day, time].flatMap((found) =>
    found === undefined ? [] : [{ start: found.start, end: found.end }],
  );
  if (day === undefined) {
    const today = atTime(base.startOf('day'), time?.value);
    return {
      at: today > base ? today : today.plus({ days: 1 }),
      spans,
      precise: true,
      hasTime: true,
      base,
    };
  }
  const explicit = time?.value ?? day.value.time;
  return {
    at: atTime(day.value.day, explicit),
    spans,
    precise: day.value.precise,
    hasTime: explicit !== undefined,
    base,
  };
}

function earliest<P extends { pattern: RegExp }, T>(
  text: string,
  patterns: readonly P[],
  resolve: (pattern: P, match: RegExpExecArray) => T | undefined,
  accept: (start: number, end: number) => boolean = () => true,
): Found<T> | undefined {
  let best: Found<T> | undefined;
  for (const pattern of patterns) {
    const global = new RegExp(pattern.pattern.source, `${pattern.pattern.flags.replace('g', '')}g`);
    for (const match of text.matchAll(global)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!accept(start, end)) continue;
      const value = resolve(pattern, match);
      if (value === undefined) continue;
      if (
        best === undefined ||
        start < best.start ||
        (start === best.start && end - start > best.end - best.start)
      ) {
        best = { start, end, value };
      }
      break;
    }
  }
  return best;
}
