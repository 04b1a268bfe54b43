import type { DateTime } from 'luxon';
import { type DayPattern, matchDueDate, type TimePattern } from './date-matcher';
import { type DueDate, nextDayOfMonth, nextWeekday, type TimeOfDay } from './due-date';

const WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
const MONTHS: Readonly<Record<string, number>> = {
  janvier: 1,
  février: 2,
  fevrier: 2,
  mars: 3,
  avril: 4,
  mai: 5,
  juin: 6,
  juillet: 7,
  août: 8,
  aout: 8,
  septembre: 9,
  octobre: 10,
  novembre: 11,
  décembre: 12,
  decembre: 12,
};
const NUMBERS: Readonly<Record<string, number>> = {
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  six: 6,
  sept: 7,
  huit: 8,
  neuf: 9,
  dix: 10,
  quinze: 15,
};
const PARTS_OF_DAY: Readonly<Record<string, TimeOfDay>> = {
  matin: { hour: 9, minute: 0 },
  midi: { hour: 12, minute: 0 },
  'après-midi': { hour: 14, minute: 0 },
  'apres-midi': { hour: 14, minute: 0 },
  soir: { hour: 19, minute: 0 },
};

const WD = `(${WEEKDAYS.join('|')})`;
const MONTH = `(${Object.keys(MONTHS).join('|')})`;
const PART = '(matin|midi|après-midi|apres-midi|soir)';
// \b is ASCII-only in JS: a letter boundary that also works around "é", "à".
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';

const DAYS: readonly DayPattern[] = [
  {
    pattern: new RegExp(
      `${B}(?:(?:le|ce)\\s+)?${WD}(?:\\s+(1er|\\d{1,2})(?:\\s+${MONTH})?)?(?:\\s+(?:prochain|qui vient))?(?:\\s+${PART})?${E}`,
      'u',
    ),
    resolve: (match, base) => {
      const weekday = WEEKDAYS.indexOf(match[1] ?? '') + 1;
      const part = partOfDay(match[4]);
      const dayOfMonth = dayNumber(match[2]);
      if (dayOfMonth !== undefined) {
        const month = match[3] === undefined ? undefined : MONTHS[match[3]];
        const day = dayInMonth(base, dayOfMonth, month);
        if (day !== undefined) return { day, ...part, precise: true };
      }
      return { day: nextWeekday(base, weekday), ...part, precise: true };
    },
  },
  {
    pattern: new RegExp(
      `${B}(?:(?:le|au|du)\\s+)?(1er|\\d{1,2})\\s+${MONTH}(?:\\s+(\\d{4}))?${E}`,
      'u',
    ),
    resolve: (match, base) => {
      const day = dayNumber(match[1]);
      const month = MONTHS[match[2] ?? ''];
      if (day === undefined || month === undefined) return undefined;
      const resolved =
        match[3] === undefined
          ? nextDayOfMonth(base, month, day)
          : validDate(base, Number(match[3]), month, day);
      return resolved === undefined ? undefined : { day: resolved, precise: true };
    },
  },
  {
    pattern: new RegExp(`${B}(?:le\\s+)?(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}|\\d{2}))?${E}`, 'u'),
    resolve: (match, base) => {
      const day = Number(match[1]);
      const month = Number(match[2]);
      const year = match[3] === undefined ? undefined : Number(match[3].padStart(4, '20'));
      const resolved =
        year === undefined ? nextDayOfMonth(base, month, day) : validDate(base, year, month, day);
      return resolved === undefined ? undefined : { day: resolved, precise: true };
    },
  },
  {
    pattern: new RegExp(`${B}après[- ]demain${E}|${B}apres[- ]demain${E}`, 'u'),
    resolve: (_match, base) => ({ day: base.plus({ days: 2 }).startOf('day'), precise: true }),
  },
  {
    pattern: new RegExp(`${B}demain(?:\\s+${PART})?${E}`, 'u'),
    resolve: (match, base) => ({
      day: base.plus({ days: 1 }).startOf('day'),
      ...partOfDay(match[1]),
      precise: true,
    }),
  },
  {
    pattern: new RegExp(`${B}aujourd'hui${E}|${B}(?:ce|cet)\\s+${PART}${E}`, 'u'),
    resolve: (match, base) => ({ day: base.startOf('day'), ...partOfDay(match[1]), precise: true }),
  },
  {
    pattern: new RegExp(`${B}ce\\s+week-?end${E}`, 'u'),
    resolve: (_match, base) => ({
      day: base.weekday >= 6 ? base.startOf('day') : nextWeekday(base, 6),
      precise: true,
    }),
  },
  {
    pattern: new RegExp(
      `${B}dans\\s+(\\d+|${Object.keys(NUMBERS).join('|')})\\s+(minutes?|heures?|jours?|semaines?|mois)${E}`,
      'u',
    ),
    resolve: (match, base) => {
      const amount = /^\d+$/.test(match[1] ?? '') ? Number(match[1]) : NUMBERS[match[1] ?? ''];
      if (amount === undefined) return undefined;
      const unit = match[2] ?? '';
      if (unit.startsWith('minute') || unit.startsWith('heure')) {
        const at = base.plus(unit.startsWith('minute') ? { minutes: amount } : { hours: amount });
        return {
          day: at.startOf('day'),
          time: { hour: at.hour, minute: at.minute },
          precise: true,
        };
      }
      const duration = unit.startsWith('jour')
        ? { days: amount }
        : unit.startsWith('semaine')
          ? { weeks: amount }
          : { months: amount };
      return { day: base.plus(duration).startOf('day'), precise: true };
    },
  },
  {
    pattern: new RegExp(
      `${B}(?:d'ici|avant)\\s+(?:la\\s+)?fin\\s+(de\\s+la\\s+semaine|du\\s+mois)${E}`,
      'u',
    ),
    resolve: (match, base) => ({
      day: (match[1] ?? '').includes('semaine')
        ? base.weekday <= 5
          ? base.set({ weekday: 5 }).startOf('day')
          : nextWeekday(base, 5)
        : base.endOf('month').startOf('day'),
      precise: true,
    }),
  },
  {
    pattern: new RegExp(`${B}la\\s+semaine\\s+prochaine${E}`, 'u'),
    resolve: (_match, base) => ({ day: nextWeekday(base, 1), precise: false }),
  },
];

const TIMES: readonly TimePattern[] = [
  {
    pattern: new RegExp(
      `${B}(?:à|a|vers|avant|dès)\\s+(\\d{1,2})\\s*(?:h|heures?)\\s*(\\d{2})?${E}`,
      'u',
    ),
    resolve: (match) => clock(match[1], match[2]),
  },
  {
    pattern: new RegExp(`${B}(\\d{1,2})\\s*h\\s*(\\d{2})?${E}`, 'u'),
    resolve: (match) => clock(match[1], match[2]),
  },
  {
    pattern: new RegExp(`${B}(?:à\\s+)?(\\d{1,2}):(\\d{2})${E}`, 'u'),
    resolve: (match) => clock(match[1], match[2]),
  },
  {
    pattern: new RegExp(`${B}à\\s+midi${E}`, 'u'),
    resolve: () => ({ hour: 12, minute: 0 }),
  },
];

export function findDueDateFr(text: string, base: DateTime): DueDate | undefined {
  return matchDueDate(text, base, DAYS, TIMES);
}

function partOfDay(part: string | undefined): { time?: TimeOfDay } {
  const time = part === undefined ? undefined : PARTS_OF_DAY[part];
  return time === undefined ? {} : { time };
}

function dayNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return text === '1er' ? 1 : Number(text);
}

function dayInMonth(base: DateTime, day: number, month: number | undefined): DateTime | undefined {
  if (month !== undefined) return nextDayOfMonth(base, month, day);
  const thisMonth = base.set({ day }).startOf('day');
  if (thisMonth.isValid && thisMonth.day === day && thisMonth >= base.startOf('day')) {
    return thisMonth;
  }
  const nextMonth = base.plus({ months: 1 }).set({ day }).startOf('day');
  return nextMonth.isValid && nextMonth.day === day ? nextMonth : undefined;
}

function validDate(base: DateTime, year: number, month: number, day: number): DateTime | undefined {
  const date = base.set({ year, month, day }).startOf('day');
  return date.isValid && date.month === month && date.day === day ? date : undefined;
}

function clock(hours: string | undefined, minutes: string | undefined): TimeOfDay | undefined {
  const hour = Number(hours);
  const minute = minutes === undefined ? 0 : Number(minutes);
  if (!Number.isInteger(hour) || hour > 23 || minute > 59) return undefined;
  return { hour, minute };
}
