import { sanitizeInline } from '../sanitize';
import { QUOTE_PREFIX } from './headings';
import { neutraliseHeadings } from './neutralise-headings';

/**
 * Every character sequence that starts a new line for some reader: CRLF, LF, CR, vertical tab,
 * form feed, NEL and the Unicode line and paragraph separators.
 */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** The lines of `text`, whatever line breaks it uses. */
export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** A line of quoted data: "> text", or a lone ">" for an empty line (no trailing space). */
export function quoteLine(line: string): string {
  return line === '' ? QUOTE_PREFIX.trimEnd() : `${QUOTE_PREFIX}${line}`;
}

/**
 * Text kept word for word (a message of the live window), as quoted lines: each line of the text
 * becomes "> line". Nothing else changes, except that every kind of line break becomes one line
 * break, blank lines at the very start and end are dropped, and bracketed headings lose their
 * brackets (`neutraliseHeadings`). The prefix already keeps any line from starting with "[";
 * neutralising the headings as well means a raw "[Fiche d'identite]" never appears twice in the
 * prompt, for a reader that looks for it anywhere in a line.
 */
export function quoteVerbatim(text: string): string[] {
  return trimBlankLines(splitLines(text)).map(neutraliseHeadings).map(quoteLine);
}

/**
 * Text written from the user's words (summary, identity card) as quoted lines, each line cleaned
 * with `sanitizeInline` (square brackets become ⟦ ⟧, control and invisible characters go, spaces
 * collapse) but keeping its indentation, so markdown lists still read as lists. Blank lines at the
 * start and end are dropped and runs of blank lines become one.
 */
export function quoteSanitized(text: string): string[] {
  const lines = splitLines(text).map((line) => {
    const body = sanitizeInline(line);
    const indent = /^[\t ]*/.exec(line)?.[0] ?? '';
    return body === '' ? '' : `${indent}${body}`;
  });
  const collapsed = lines.filter((line, index) => line !== '' || lines[index - 1] !== '');
  return trimBlankLines(collapsed).map(quoteLine);
}

function trimBlankLines(lines: readonly string[]): string[] {
  const blank = (line: string | undefined): boolean => line !== undefined && line.trim() === '';
  let start = 0;
  let end = lines.length;
  while (start < end && blank(lines[start])) start += 1;
  while (end > start && blank(lines[end - 1])) end -= 1;
  return lines.slice(start, end);
}
