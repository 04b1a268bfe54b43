import type { DateTime } from 'luxon';
import { type DayPattern, matchDueDate, type TimePattern } from './date-matcher';
import { type DueDate, nextDayOfMonth, nextWeekday, type TimeOfDay } from './due-date';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MONTHS: Readonly<Record<string, number>> = {
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const NUMBERS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const PARTS_OF_DAY: Readonly<Record<string, TimeOfDay>> = {
  morning: { hour: 9, minute: 0 },
  afternoon: { hour: 14, minute: 0 },
  evening: { hour: 19, minute: 0 },
  night: { hour: 20, minute: 0 },
};

const WD = `(${WEEKDAYS.join('|')})`;
const MONTH = `(${Object.keys(MONTHS).join('|')})`;
const PART = '(morning|afternoon|evening|night)';

const DAYS: readonly DayPattern[] = [
  {
    pattern: new RegExp(`\\b(?:(?:on|this|next|coming)\\s+)?${WD}(?:\\s+${PART})?\\b`),
    resolve: (match, base) => ({
      day: nextWeekday(base, WEEKDAYS.indexOf(match[1] ?? '') + 1),
      ...partOfDay(match[2]),
      precise: true,
    }),
  },
  {
    pattern: new RegExp(
      `\\b(?:on\\s+)?${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`,
    ),
    resolve: (match, base) => onDate(base, match[1], match[2], match[3]),
  },
  {
    pattern: new RegExp(
      `\\b(?:on\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b(?:,?\\s+(\\d{4}))?`,
    ),
    resolve: (match, base) => onDate(base, match[2], match[1], match[3]),
  },
  {
    pattern: /\b(?:the\s+)?day\s+after\s+tomorrow\b/,
    resolve: (_match, base) => ({ day: base.plus({ days: 2 }).startOf('day'), precise: true }),
  },
  {
    pattern: new RegExp(`\\btomorrow(?:\\s+${PART})?\\b`),
    resolve: (match, base) => ({
      day: base.plus({ days: 1 }).startOf('day'),
      ...partOfDay(match[1]),
      precise: true,
    }),
  },
  {
    pattern: /\btoday\b|\btonight\b|\bthis\s+(morning|afternoon|evening)\b/,
    resolve: (match, base) => ({
      day: base.startOf('day'),
      ...(match[0] === 'tonight' ? { time: { hour: 20, minute: 0 } } : partOfDay(match[1])),
      precise: true,
    }),
  },
  {
    pattern: /\bthis\s+weekend\b/,
    resolve: (_match, base) => ({
      day: base.weekday >= 6 ? base.startOf('day') : nextWeekday(base, 6),
      precise: true,
    }),
  },
  {
    pattern: new RegExp(
      `\\bin\\s+(\\d+|${Object.keys(NUMBERS).join('|')})\\s+(minutes?|hours?|days?|weeks?|months?)\\b`,
    ),
    resolve: (match, base) => {
      const amount = /^\d+$/.test(match[1] ?? '') ? Number(match[1]) : NUMBERS[match[1] ?? ''];
      if (amount === undefined) return undefined;
      const unit = match[2] ?? '';
      if (unit.startsWith('minute') || unit.startsWith('hour')) {
        const at = base.plus(unit.startsWith('minute') ? { minutes: amount } : { hours: amount });
        return {
          day: at.startOf('day'),
          time: { hour: at.hour, minute: at.minute },
          precise: true,
        };
      }
      const duration = unit.startsWith('day')
        ? { days: amount }
        : unit.startsWith('week')
          ? { weeks: amount }
          : { months: amount };
      return { day: base.plus(duration).startOf('day'), precise: true };
    },
  },
  {
    pattern: /\b(?:by\s+)?(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month)\b/,
    resolve: (match, base) => ({
      day:
        match[1] === 'week'
          ? base.weekday <= 5
            ? base.set({ weekday: 5 }).startOf('day')
            : nextWeekday(base, 5)
          : base.endOf('month').startOf('day'),
      precise: true,
    }),
  },
  {
    pattern: /\bnext\s+week\b/,
    resolve: (_match, base) => ({ day: nextWeekday(base, 1), precise: false }),
  },
];

const TIMES: readonly TimePattern[] = [
  {
    pattern: /\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])/,
    resolve: (match) => clock(match[1], match[2], match[3]),
  },
  {
    pattern: /\bat\s+(\d{1,2})(?::(\d{2}))?\b(?!\s*(?:am|pm|%|years?|people|percent))/,
    resolve: (match) => clock(match[1], match[2], undefined),
  },
  {
    pattern: /\b(?:at\s+)?noon\b/,
    resolve: () => ({ hour: 12, minute: 0 }),
  },
];

export function findDueDateEn(text: string, base: DateTime): DueDate | undefined {
  return matchDueDate(text, base, DAYS, TIMES);
}

function onDate(
  base: DateTime,
  monthName: string | undefined,
  dayText: string | undefined,
  yearText: string | undefined,
) {
  const month = MONTHS[monthName ?? ''];
  const day = Number(dayText);
  if (month === undefined || !Number.isInteger(day)) return undefined;
  let resolved: DateTime | undefined;
  if (yearText === undefined) {
    resolved = nextDayOfMonth(base, month, day);
  } else {
    const date = base.set({ year: Number(yearText), month, day }).startOf('day');
    resolved = date.isValid && date.day === day && date.month === month ? date : undefined;
  }
  return resolved === undefined ? undefined : { day: resolved, precise: true };
}

function partOfDay(part: string | undefined): { time?: TimeOfDay } {
  const time = part === undefined ? undefined : PARTS_OF_DAY[part];
  return time === undefined ? {} : { time };
}

/** "at 3" with no am/pm is read as the afternoon for 1 to 7: nobody books a call at 3 am. */
function clock(
  hours: string | undefined,
  minutes: string | undefined,
  meridiem: string | undefined,
): TimeOfDay | undefined {
  let hour = Number(hours);
  const minute = minutes === undefined ? 0 : Number(minutes);
  if (!Number.isInteger(hour) || hour > 23 || minute > 59) return undefined;
  if (meridiem !== undefined) {
    if (hour > 12) return undefined;
    const pm = meridiem.startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (hour >= 1 && hour <= 7) {
    hour += 12;
  }
  return { hour, minute };
}
