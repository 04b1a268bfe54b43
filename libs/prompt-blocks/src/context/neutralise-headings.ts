import { INVISIBLE, INVISIBLE_CHARACTERS } from '../sanitize';
import { CONTEXT_HEADINGS } from './headings';

/** A heading's words compared loosely: case, accents, apostrophes, spacing and invisibles aside. */
function headingKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(INVISIBLE, '')
    .replace(/[\u2018\u2019\u02BC`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The words of every heading the context uses, in every locale ("fiche d'identite"...). */
const HEADING_KEYS: ReadonlySet<string> = new Set(
  Object.values(CONTEXT_HEADINGS)
    .flatMap((headings) => Object.values(headings))
    .map((heading) => headingKey(heading.slice(1, -1))),
);

/** Whitespace and invisible formatting before the first "[" of a line, then that bracket's text. */
const LEADING_BRACKET = new RegExp(`^([\\s${INVISIBLE_CHARACTERS}]*)\\[([^\\]]*)(\\]?)`);

/**
 * One line of verbatim text (a live-window message) with anything that could pass for a block
 * heading defused, and nothing else changed: the brackets of a context heading written anywhere
 * in the line ("[Fiche d’identité]", "[identity card]") and of a bracketed text opening the line
 * ("[System]", "[Instructions") become ⟦ ⟧. Other brackets (a markdown link mid-line, "[x]" in
 * a list item) stay as the user wrote them.
 */
export function neutraliseHeadings(line: string): string {
  const named = line.replace(/\[([^[\]]*)\]/g, (whole, inner: string) =>
    HEADING_KEYS.has(headingKey(inner)) ? `⟦${inner}⟧` : whole,
  );
  return named.replace(
    LEADING_BRACKET,
    (_whole, lead: string, inner: string, close: string) =>
      `${lead}⟦${inner}${close === '' ? '' : '⟧'}`,
  );
}
