import type { Locale } from '@engram/domain';
import type { ParsedResult } from 'chrono-node';
import { DateTime } from 'luxon';
import { DATE_PARSERS } from './date-parsers';
import { atTime, type DueDate, type TimeOfDay } from './due-date';

/** Engram's hours for a part of the day (chrono's morning is 6 am: too early for a reminder). */
const PARTS_OF_DAY: Readonly<Record<string, TimeOfDay>> = {
  'casualReference/morning': { hour: 9, minute: 0 },
  'casualReference/noon': { hour: 12, minute: 0 },
  'casualReference/afternoon': { hour: 14, minute: 0 },
  'casualReference/evening': { hour: 19, minute: 0 },
  'casualReference/tonight': { hour: 20, minute: 0 },
};
/** Right now, or the past: never a due date (with forwardDate chrono even reads "last Friday" ahead). */
const NOT_AHEAD_TAGS = ['casualReference/now', 'casualReference/yesterday'];
const NOT_AHEAD =
  /(?<![\p{L}])(?:dernier|dernière|passée?|il y a|hier|last|past|previous|ago|yesterday)(?![\p{L}])/iu;
/** A duration is a date only after "in", "dans": chrono also reads "for 3 years" or "31 years" ahead. */
const BARE_DURATION =
  /^(?:for|pendant|depuis|\d|an?|one|two|three|four|five|six|seven|eight|nine|ten|few|several|une?|deux|trois|quatre|cinq|sept|huit|neuf|dix|quelques)(?![\p{L}])/iu;
/** "next week", "le mois prochain" say when, not which day. */
const PERIOD =
  /(?:next|coming|this)\s+(?:week|month|year)(?![\p{L}])|(?:semaine|mois|année|an)\s+(?:prochaine?|qui vient)/iu;
/** The word before a date that its absolute label replaces ("vers 10h" → "le mardi 9 juin à 10h"). */
const LEADING_ARTICLE = /(?<![\p{L}])(?:le|vers|à|on|the|at)\s+$/iu;

/**
 * The first date of the text, read by chrono-node against the message time in the user's zone,
 * completed by a time said apart ("Demain j'ai mon oral à 10h"). What chrono reads is Engram's to
 * judge: which readings are due dates, the hour when only a day is said, and the year of a date
 * whose weekday disagrees with chrono's.
 */
export function findDueDate(text: string, language: Locale, base: DateTime): DueDate | undefined {
  const results = DATE_PARSERS[language]
    .parse(text, { instant: base.toJSDate(), timezone: base.offset }, { forwardDate: true })
    .filter((result) => isAhead(result) && !isWordNotWeekday(text, result));
  const dayResult = results.find(namesDay);
  const timeResult = results.find((result) => !namesDay(result) && timeOf(result, language));
  const spans = [dayResult, timeResult].flatMap((result) =>
    result === undefined ? [] : [spanOf(text, result)],
  );
  if (dayResult === undefined) {
    return timeResult === undefined ? undefined : today(timeResult, spans, language, base);
  }
  const day = dayOf(dayResult, base);
  if (day === undefined) return undefined;
  const time =
    certainTime(dayResult, language) ?? timeOf(timeResult, language) ?? timeOf(dayResult, language);
  return {
    at: atTime(day, time),
    spans,
    precise: !PERIOD.test(dayResult.text),
    hasTime: time !== undefined,
    base,
  };
}

/** A time without a day: "ce soir" is this evening even once begun, "à 18h" tomorrow's once past. */
function today(
  result: ParsedResult,
  spans: DueDate['spans'],
  language: Locale,
  base: DateTime,
): DueDate {
  const at = atTime(base.startOf('day'), timeOf(result, language));
  const partOfDay = !result.start.isCertain('hour');
  return {
    at: partOfDay || at > base ? at : at.plus({ days: 1 }),
    spans,
    precise: true,
    hasTime: true,
    base,
  };
}

function isAhead(result: ParsedResult): boolean {
  const tags = result.tags();
  if (NOT_AHEAD_TAGS.some((tag) => tags.has(tag)) || NOT_AHEAD.test(result.text)) return false;
  return !(tags.has('result/relativeDate') && BARE_DURATION.test(result.text));
}

/**
 * chrono reads the French weekday abbreviations alone as days: "la mer" became a Wednesday. Alone and
 * without the abbreviation's dot they are words; "mer. 12" or "mer 12" stays a date.
 */
function isWordNotWeekday(text: string, result: ParsedResult): boolean {
  return (
    /^(?:lun|mar|mer|jeu|ven|sam|dim)$/iu.test(result.text) &&
    text.charAt(result.index + result.text.length) !== '.'
  );
}

function namesDay(result: ParsedResult): boolean {
  return ['day', 'weekday', 'month'].some((component) =>
    result.start.isCertain(component as 'day' | 'weekday' | 'month'),
  );
}

/**
 * The day chrono read, with Engram's corrections: a weekday alone is the first one after the
 * message day ("vendredi" said on a Friday is next week's; "next Tuesday" said on a Monday is
 * tomorrow, where chrono reads next week's); a day and month without a year is this year's from
 * the message day on (chrono moves one said on the day to next year once its noon has passed);
 * a weekday said with the date picks the year where they agree.
 */
function dayOf(result: ParsedResult, base: DateTime): DateTime | undefined {
  const start = result.start;
  const read = DateTime.fromObject(
    {
      year: start.get('year') ?? base.year,
      month: start.get('month') ?? 1,
      day: start.get('day') ?? 1,
    },
    { zone: base.zone },
  );
  if (!read.isValid) return undefined;
  const today = base.startOf('day');
  const weekday = start.get('weekday');
  if (weekday !== null && start.isCertain('weekday') && !start.isCertain('day')) {
    return today.plus({ days: (weekday - (today.weekday % 7) + 7) % 7 || 7 });
  }
  if (read < today) return undefined;
  if (start.isCertain('year') || !start.isCertain('day')) return read;
  const thisYear = read.set({ year: base.year });
  const forward = thisYear.isValid && thisYear >= today ? thisYear : read;
  if (!start.isCertain('weekday') || weekday === null) return forward;
  return withWeekday(forward, weekday) ?? forward;
}

/**
 * "vendredi 12 juin": the date wins, the weekday only chooses its year, among the year chrono
 * read, the one before (a date said after it passed) and the one after. No agreement: the date.
 */
function withWeekday(date: DateTime, weekday: number): DateTime | undefined {
  return [0, -1, 1]
    .map((years) => date.plus({ years }))
    .find(
      (candidate) =>
        candidate.isValid && candidate.day === date.day && candidate.weekday % 7 === weekday,
    );
}

function certainTime(result: ParsedResult, language: Locale): TimeOfDay | undefined {
  return result.start.isCertain('hour') ? timeOf(result, language) : undefined;
}

/** The time chrono read, or the hour of a part of the day; undefined for a day alone. */
function timeOf(result: ParsedResult | undefined, language: Locale): TimeOfDay | undefined {
  if (result === undefined) return undefined;
  const start = result.start;
  if (start.isCertain('hour')) {
    const hour = start.get('hour') ?? 0;
    // "at 3" with no am/pm is the afternoon for 1 to 7: nobody books a call at 3 am.
    const afternoon = language === 'en' && !start.isCertain('meridiem') && hour >= 1 && hour <= 7;
    return { hour: afternoon ? hour + 12 : hour, minute: start.get('minute') ?? 0 };
  }
  const tags = result.tags();
  const part = Object.keys(PARTS_OF_DAY).find((tag) => tags.has(tag));
  return part === undefined ? undefined : PARTS_OF_DAY[part];
}

function spanOf(text: string, result: ParsedResult): { start: number; end: number } {
  const article = LEADING_ARTICLE.exec(text.slice(0, result.index));
  const start = article === null ? result.index : article.index;
  return { start, end: result.index + result.text.length };
}
