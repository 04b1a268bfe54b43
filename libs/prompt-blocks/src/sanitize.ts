/** Control characters, line and paragraph separators: anything that could start a new line. */
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/gu;
/** Invisible formatting (zero-width spaces, direction marks, bidi overrides and isolates, BOM). */
const INVISIBLE = /[\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/**
 * Makes text a user typed (or a model wrote) safe to show inside one line of a prompt block:
 * control characters and line breaks become spaces, invisible formatting characters go, runs of
 * whitespace collapse to one space, and square brackets become ⟦ ⟧ so that nothing can pose as a
 * block heading such as "[Fiche d'identite]".
 */
export function sanitizeInline(text: string): string {
  return text
    .replace(BREAKING, ' ')
    .replace(INVISIBLE, '')
    .replace(/\[/g, '⟦')
    .replace(/\]/g, '⟧')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Keeps the first `max` characters (code points) and marks the cut with "…". */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}…`;
}

/**
 * Wraps a title in the locale's quotes: « … » in French, "…" in English. Quotes of the same kind
 * inside the title become ‹ › or ' so that it cannot close the quote early and add text of its own.
 */
export function quote(text: string, locale: 'fr' | 'en'): string {
  return locale === 'fr'
    ? `« ${text.replace(/«/g, '‹').replace(/»/g, '›')} »`
    : `"${text.replace(/"/g, "'")}"`;
}
