import { createHash } from 'node:crypto';

/** Names handed out so far, by statement text (bounded: the texts are the code's own, a few dozen). */
const names = new Map<string, string>();
const MAX_NAMES = 1_000;

/**
 * The name under which `text` runs as a prepared statement (node-postgres prepares a named query
 * once per connection, then only binds and executes it), the same for the same text in every
 * connection; undefined (run unnamed) past the bound. Here rather than in libs/database because the
 * event store's own reads use it too, and libs/database depends on the event store.
 */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name !== undefined) return name;
  // Past the bound the text runs unnamed: a leak of prepared statements in every connection would
  // cost more than planning.
  if (names.size >= MAX_NAMES) return undefined;
  name = `engram_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}
