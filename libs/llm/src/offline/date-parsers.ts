import type { Locale } from '@engram/domain';
import * as chrono from 'chrono-node';

type Components = { [component in chrono.Component]?: number };

/**
 * chrono-node's casual French and English parsers, plus the few phrases it does not read and that
 * people use for deadlines. Each addition resolves against the message day in the user's zone, as
 * chrono's own parsers do.
 */
export const DATE_PARSERS: Readonly<Record<Locale, chrono.Chrono>> = {
  fr: withParsers(chrono.fr.casual, [
    daysAhead(/(?<![\p{L}\p{N}])apr[eè]s[- ]demain(?![\p{L}\p{N}])/iu, () => 2),
    daysAhead(
      /(?<![\p{L}\p{N}])(?:d'ici|avant)\s+(?:la\s+)?fin\s+de\s+la\s+semaine(?![\p{L}\p{N}])/iu,
      untilFriday,
    ),
    endOfMonth(/(?<![\p{L}\p{N}])(?:d'ici|avant)\s+(?:la\s+)?fin\s+du\s+mois(?![\p{L}\p{N}])/iu),
    daysAhead(/(?<![\p{L}\p{N}])ce\s+week-?end(?![\p{L}\p{N}])/iu, untilWeekend),
    weekdayAndDay(),
    // chrono spells it "a midi" only
    {
      pattern: () => /(?<![\p{L}\p{N}])à\s+midi(?![\p{L}\p{N}])/iu,
      extract: () => ({ hour: 12, minute: 0 }),
    },
  ]),
  en: withParsers(chrono.en.casual, [
    daysAhead(/\b(?:the\s+)?day\s+after\s+tomorrow\b/i, () => 2),
    daysAhead(/\b(?:by\s+)?(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?week\b/i, untilFriday),
  ]),
};

function withParsers(base: chrono.Chrono, parsers: readonly chrono.Parser[]): chrono.Chrono {
  const configured = base.clone();
  // first, so that an addition read over the same words as chrono's reading is the one kept
  configured.parsers.unshift(...parsers);
  return configured;
}

/** A day counted from the message day, by the message day's weekday (0 for Sunday). */
function daysAhead(pattern: RegExp, days: (weekday: number) => number): chrono.Parser {
  return {
    pattern: () => pattern,
    extract: (context) => {
      const today = messageDay(context);
      return dayOf(shifted(today, days(today.getDay())));
    },
  };
}

/** "d'ici la fin de la semaine": this week's Friday, next week's once the week is over. */
function untilFriday(weekday: number): number {
  return weekday === 6 ? 6 : weekday === 0 ? 5 : 5 - weekday;
}

/** "ce week-end": the coming Saturday, or today when the weekend has begun. */
function untilWeekend(weekday: number): number {
  return weekday === 6 || weekday === 0 ? 0 : 6 - weekday;
}

function endOfMonth(pattern: RegExp): chrono.Parser {
  return {
    pattern: () => pattern,
    extract: (context) => {
      const today = messageDay(context);
      return dayOf(new Date(today.getFullYear(), today.getMonth() + 1, 0));
    },
  };
}

/** The message time as chrono reads it: its local fields are the user's wall clock. */
function messageDay(context: chrono.ParsingContext): Date {
  return context.reference.getDateWithAdjustedTimezone();
}

const WEEKDAYS_FR = ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'];
const MONTH_PREFIX = '(?:janv|f[ée]vr|mars|avr|mai|juin|juil|ao[uû]t|sept|oct|nov|d[ée]c)';

/**
 * "jeudi 11 (à 15h)": the 11th, this month's or next month's once passed; chrono reads 11 as the
 * hour and loses "à 15h". With a month ("jeudi 11 juin"), chrono reads it right and is left to.
 */
function weekdayAndDay(): chrono.Parser {
  return {
    pattern: () =>
      new RegExp(
        `(?<![\\p{L}\\p{N}])(${WEEKDAYS_FR.join('|')})\\s+(1er|\\d{1,2})(?![\\p{L}\\p{N}:])(?!\\s*(?:h|heures?)(?![\\p{L}]))(?!\\s+${MONTH_PREFIX})(?:,?\\s+à\\s+(\\d{1,2})\\s*h\\s*(\\d{2})?)?`,
        'iu',
      ),
    extract: (context, match) => {
      const day = match[2] === '1er' ? 1 : Number(match[2]);
      const today = messageDay(context);
      const month = today.getMonth() + (day >= today.getDate() ? 0 : 1);
      const date = new Date(today.getFullYear(), month, day);
      if (date.getDate() !== day || Number(match[3] ?? 0) > 23) return null;
      const weekday = WEEKDAYS_FR.indexOf((match[1] ?? '').toLowerCase());
      const time =
        match[3] === undefined ? {} : { hour: Number(match[3]), minute: Number(match[4] ?? 0) };
      return { ...dayOf(date), weekday, ...time };
    },
  };
}

function shifted(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

function dayOf(date: Date): Components {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}
