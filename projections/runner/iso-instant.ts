/**
 * An instant as `Date.prototype.toISOString()` writes it (UTC, milliseconds, `Z`), rendered by
 * PostgreSQL inside a statement that returns JSON: the one form a read's timestamps take from the
 * statement to their use, with no `Date` in between. `to_char` truncates microseconds to
 * milliseconds, as `Date` did. NULL stays NULL.
 */
export const isoInstantSql = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An ISO 8601 instant in UTC with milliseconds, as `isoInstantSql` renders it. */
export type IsoInstant = string;
