import type { Locale } from '@engram/domain';
import { messageTime } from './due-date';
import { findDueDate } from './find-due-date';

/** Monday 8 June 2026, 18:40 in Paris. */
const MONDAY_EVENING = messageTime('2026-06-08T16:40:00Z', 'Europe/Paris');

function dueAt(text: string, language: Locale, base = MONDAY_EVENING) {
  const due = findDueDate(text, language, base);
  return due === undefined ? undefined : { at: due.at.toISO(), precise: due.precise };
}

describe('findDueDate', () => {
  it.each<[string, Locale, string]>([
    ['vendredi 12 juin', 'fr', '2026-06-12T09:00:00.000+02:00'],
    ['demain à 15h', 'fr', '2026-06-09T15:00:00.000+02:00'],
    ['dans 3 jours', 'fr', '2026-06-11T09:00:00.000+02:00'],
    ['le 3 mars', 'fr', '2027-03-03T09:00:00.000+01:00'],
    ['le 8 juin', 'fr', '2026-06-08T09:00:00.000+02:00'],
    ['avant la fin du mois', 'fr', '2026-06-30T09:00:00.000+02:00'],
    ["d'ici la fin de la semaine", 'fr', '2026-06-12T09:00:00.000+02:00'],
    ['après-demain', 'fr', '2026-06-10T09:00:00.000+02:00'],
    ['jeudi 11 à 15h', 'fr', '2026-06-11T15:00:00.000+02:00'],
    ['ce soir', 'fr', '2026-06-08T19:00:00.000+02:00'],
    ['à 18h', 'fr', '2026-06-09T18:00:00.000+02:00'],
    ['next Tuesday', 'en', '2026-06-09T09:00:00.000+02:00'],
    ['in two weeks', 'en', '2026-06-22T09:00:00.000+02:00'],
    ['by the end of the month', 'en', '2026-06-30T09:00:00.000+02:00'],
    ['the day after tomorrow', 'en', '2026-06-10T09:00:00.000+02:00'],
    ['at 3', 'en', '2026-06-09T15:00:00.000+02:00'],
    ['tomorrow morning', 'en', '2026-06-09T09:00:00.000+02:00'],
  ])('%s (%s) → %s', (text, language, at) => {
    expect(dueAt(text, language)).toEqual({ at, precise: true });
  });

  it('keeps the date of "vendredi 12 juin" said after it, in the year where 12 June is a Friday', () => {
    const december = messageTime('2026-12-01T10:00:00Z', 'Europe/Paris');
    expect(dueAt('vendredi 12 juin', 'fr', december)?.at).toBe('2026-06-12T09:00:00.000+02:00');
    expect(dueAt('samedi 12 juin', 'fr', december)?.at).toBe('2027-06-12T09:00:00.000+02:00');
  });

  it('still reads an abbreviated weekday with its dot', () => {
    expect(dueAt('mer. à 10h', 'fr')?.at).toBe('2026-06-10T10:00:00.000+02:00');
  });

  it('reads a period without a day as not precise', () => {
    expect(dueAt('la semaine prochaine', 'fr')?.precise).toBe(false);
    expect(dueAt('next month', 'en')?.precise).toBe(false);
  });

  it.each<[string, Locale]>([
    ['hier', 'fr'],
    ['vendredi dernier', 'fr'],
    ['il y a 3 jours', 'fr'],
    ['last Friday', 'en'],
    ['now', 'en'],
    ["I've been vegan for 3 years", 'en'],
    ["I'm 31 years old", 'en'],
    ['je vais regretter la mer', 'fr'],
    ['on a fait du ski de fond à Sam', 'fr'],
  ])('finds no due date in "%s"', (text, language) => {
    expect(dueAt(text, language)).toBeUndefined();
  });
});
