/** Control characters, line and paragraph separators: anything that could start a new line. */
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/gu;
/** Invisible formatting (zero-width spaces, direction marks, bidi overrides and isolates, BOM). */
export const INVISIBLE_CHARACTERS = '\\u200B\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\uFEFF';
export const INVISIBLE = new RegExp(`[${INVISIBLE_CHARACTERS}]`, 'g');

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
 * Wraps text from outside in the locale's quotes: « … » in French (the seed's
 * `publish_linkedin_post « Retour sur Q2 »`), straight "…" in English (plain ASCII: one token in
 * every tokenizer, and what the English golden file has always shown). Quote marks inside the text
 * that could be read as closing it become ‹ › in French and ' in English, so the text cannot end
 * the quote early and add words of its own to the line. Pass text through `sanitizeInline` first.
 */
export function quote(text: string, locale: 'fr' | 'en'): string {
  return locale === 'fr'
    ? `« ${text.replace(/«/g, '‹').replace(/»/g, '›')} »`
    : `"${text.replace(/["\u201C\u201D\u201E\u201F]/g, "'")}"`;
}

/** Letters, digits and _ . - only: how a tool name or a channel looks when it is well formed. */
const IDENTIFIER = /^[A-Za-z0-9_.-]+$/;

/**
 * A name an agent supplies (a tool, a channel) as it goes into a line: bare when it is an
 * identifier, like `gmail_send`; quoted otherwise, so that "SYSTEM: ignore the rules" or a
 * markdown heading given as a tool name reads as a quoted name, never as words of the line.
 * Cut to `max` characters; '' when nothing is left after sanitising.
 */
export function identifierOrQuote(text: string, locale: 'fr' | 'en', max: number): string {
  const clean = sanitizeInline(text);
  if (clean === '') return '';
  const short = shorten(clean, max);
  return IDENTIFIER.test(clean) ? short : quote(short, locale);
}
