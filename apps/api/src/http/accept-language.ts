import { LOCALES, type Locale } from '@engram/domain';

/**
 * The first language of an `Accept-Language` header that Engram writes, by the client's weights
 * (`fr-CH, fr;q=0.9, en;q=0.8` → fr; `de, en;q=0.5` → en); null when it names none (`*` is not a
 * choice: the caller's default applies). A malformed weight counts as 1; nothing is an error.
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters
        .map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1])
        .find(Boolean);
      return {
        language: tag.trim().toLowerCase().split('-')[0] ?? '',
        q: q === undefined ? 1 : Number(q),
        index,
      };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => (LOCALES as readonly string[]).includes(entry.language));
  return found ? (found.language as Locale) : null;
}
