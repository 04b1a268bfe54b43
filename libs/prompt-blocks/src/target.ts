import type { Locale } from '@engram/domain';
import { MAX_LENGTH } from './labels';
import { quote, sanitizeInline, shorten } from './sanitize';

/**
 * How a target reads, decided from its text alone (after sanitising):
 * - `address`: it contains "@" (an email address, a handle): a person, shown "à X" / "to X";
 * - `identifier`: no whitespace and an underscore or a digit (evt_92ab…, a uuid): shown "(X)",
 *   cut to 8 characters and "…";
 * - `title`: anything else (a post title, a subject): shown « X » / "X", cut to 40 characters.
 */
export type TargetKind = 'address' | 'identifier' | 'title';

export function classifyTarget(target: string): TargetKind {
  if (target.includes('@')) return 'address';
  if (!/\s/.test(target) && /[_\d]/.test(target)) return 'identifier';
  return 'title';
}

/** The target after the tool name in the recent-actions block; null when there is none. */
export function targetForRecentBlock(target: string | null, locale: Locale): string | null {
  const clean = sanitizeInline(target ?? '');
  if (!clean) return null;
  switch (classifyTarget(clean)) {
    case 'address':
      return `${locale === 'fr' ? 'à' : 'to'} ${shorten(clean, MAX_LENGTH.address)}`;
    case 'identifier':
      return `(${shorten(clean, MAX_LENGTH.identifier)})`;
    case 'title':
      return quote(shorten(clean, MAX_LENGTH.title), locale);
  }
}

/** The target after "→" in a recall line; null when there is none. */
export function targetForRecall(target: string | null, locale: Locale): string | null {
  const clean = sanitizeInline(target ?? '');
  if (!clean) return null;
  switch (classifyTarget(clean)) {
    case 'address':
      return shorten(clean, MAX_LENGTH.address);
    case 'identifier':
      return shorten(clean, MAX_LENGTH.identifier);
    case 'title':
      return quote(shorten(clean, MAX_LENGTH.title), locale);
  }
}

/** A summary as a quoted title, cut to `max` characters; null when it is empty. */
export function quotedSummary(summary: string, locale: Locale, max: number): string | null {
  const clean = sanitizeInline(summary);
  return clean ? quote(shorten(clean, max), locale) : null;
}
