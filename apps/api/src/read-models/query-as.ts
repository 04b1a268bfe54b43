import { escapeLiteral, type Pool, type QueryResult, type QueryResultRow } from 'pg';
import type { CallerIdentity } from '@engram/domain';

/** What a statement's `$n` may stand for. */
export type SqlValue = string | number | boolean | null;

/**
 * One statement under the caller's identity, in one round trip (runAs takes four: BEGIN, the
 * identity, the statement, COMMIT). The identity and the statement go as one simple-protocol query
 * message holding two statements. PostgreSQL runs the statements of one query message in order, as
 * one implicit transaction: the `set_config(…, true)` of the first holds while the second runs (its
 * row policies read it then), and is gone once the message is done, as at runAs's COMMIT. Since the
 * simple protocol takes no parameters, the values are inlined as literals (`inlineParameters`).
 */
export async function queryAs<T extends QueryResultRow>(
  pool: Pool,
  identity: CallerIdentity,
  sql: string,
  params: readonly SqlValue[],
): Promise<T[]> {
  const text =
    `SELECT set_config('engram.workspace_id', ${literal(identity.workspaceId)}, true), ` +
    `set_config('engram.user_id', ${literal(identity.userId)}, true), ` +
    `set_config('engram.roles', ${literal(identity.roles.join(','))}, true);\n` +
    inlineParameters(sql, params);
  // No values: pg sends a simple query, and answers a message of two statements with two results.
  const results = (await pool.query(text)) as unknown as QueryResult<T>[];
  const rows = results[1]?.rows;
  if (!rows) throw new Error('queryAs: the statement gave no result (more than one statement?)');
  return rows;
}

/**
 * `sql` with each `$n` replaced by the literal of `params[n - 1]`: strings quoted by pg's
 * escapeLiteral (quotes and backslashes escaped), finite numbers and booleans written out, null as
 * NULL. The statements given here are the API's own, with no `$` but their placeholders.
 */
export function inlineParameters(sql: string, params: readonly SqlValue[]): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => {
    const position = Number(index);
    if (position < 1 || position > params.length) {
      throw new RangeError(`$${index}: the statement has ${params.length} parameters`);
    }
    return literal(params[position - 1]!);
  });
}

function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    // In parentheses: `a-$1` with -1 must not read as a comment (`a--1`).
    return value < 0 ? `(${value})` : String(value);
  }
  // A query message ends at a NUL byte, and PostgreSQL text cannot hold one anyway.
  if (value.includes('\0')) throw new RangeError('a text parameter holds a NUL character');
  return escapeLiteral(value);
}
