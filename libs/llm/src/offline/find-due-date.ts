import type { Locale } from '@engram/domain';
import type { DateTime } from 'luxon';
import type { DueDate } from './due-date';
import { findDueDateEn } from './due-date.en';
import { findDueDateFr } from './due-date.fr';

export function findDueDate(text: string, language: Locale, base: DateTime): DueDate | undefined {
  return language === 'fr' ? findDueDateFr(text, base) : findDueDateEn(text, base);
}
