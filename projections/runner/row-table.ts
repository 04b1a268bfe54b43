import { preparedQuery } from '@engram/database';
import type { EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { OwnedRow, RowProjection } from './projection';

/** What `applyBatch` needs of a read model's table: the runner's is SQL, the property tests' a Map. */
export type RowTable<Row extends OwnedRow> = Readonly<{
  findByKeys(keys: readonly Partial<Row>[]): Promise<Row[]>;
  deleteWhere(criteria: Partial<Row>): Promise<void>;
  upsert(rows: readonly Row[]): Promise<void>;
}>;

/** An SQL statement, or part of one, with its parameters. */
export type SqlPart = Readonly<{ sql: string; params: readonly unknown[] }>;

/**
 * Rows a batch upserts into its read model's table, made only if its checkpoint advanced. The
 * upserts of several batches into one table (the partitions of one projection) can go in one
 * statement: `rows` is data, `into` the table's fixed SQL.
 */
export type GuardedUpsert = Readonly<{
  /**
   * The table (quoted): the rows are read as its row type. A group merges batches by table, so
   * `into` must be the same for every batch of a table (one projection owns each read model).
   */
  table: string;
  /** The rows, one JSON array. */
  rows: string;
  /** The INSERT … ON CONFLICT of the rows of `from`: an SQL FROM list in which `r` is a table row. */
  into: (from: string) => string;
}>;

/** The runner's table, which can also hand its upsert to a larger statement. */
export type SqlRowTable<Row extends OwnedRow> = RowTable<Row> &
  Readonly<{
    /** The upsert of `rows`, for the statement that advances the batch's checkpoint to make. */
    guardedUpsert(rows: readonly Row[]): GuardedUpsert;
  }>;

/**
 * A read model's table through plain SQL in the caller's transaction. TypeORM's `find` with one
 * criterion per key and its `upsert` build their parameters in quadratic time (most of a rebuild's CPU
 * went there); here a batch's keys or rows travel as one JSON parameter, expanded by
 * json_populate_recordset into the table's own row type, so each lookup and write is one statement
 * whatever the batch size, and the same text at every batch (a prepared statement, planned once per
 * connection).
 */
export function sqlRowTable<Row extends OwnedRow>(
  manager: EntityManager,
  projection: RowProjection<Row>,
): SqlRowTable<Row> {
  const metadata = manager.connection.getMetadata(projection.entity);
  const table = `"${metadata.tableName}"`;
  const columns = metadata.columns;
  const keyColumns = projection.key.map(
    (property) => columns.find((column) => column.propertyName === property)!.databaseName,
  );
  const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');
  const allNames = columns.map((column) => column.databaseName);
  const updated = allNames.filter((name) => !keyColumns.includes(name));
  const asJson = (rows: readonly Partial<Row>[]) =>
    JSON.stringify(rows.map((row) => toDatabaseRow(columns, row)));
  // `from` names a row of the table `r`: the rows come from one JSON parameter, or from a group's.
  const upsertFrom = (from: string) =>
    `INSERT INTO ${table} (${quoted(allNames)})
     SELECT ${allNames.map((name) => `r."${name}"`).join(', ')} FROM ${from}
     ON CONFLICT (${quoted(keyColumns)}) ` +
    (updated.length === 0
      ? 'DO NOTHING'
      : `DO UPDATE SET ${updated.map((name) => `"${name}" = EXCLUDED."${name}"`).join(', ')}
         WHERE (${updated.map((name) => `${table}."${name}"`).join(', ')})
               IS DISTINCT FROM (${updated.map((name) => `EXCLUDED."${name}"`).join(', ')})`);
  const upsertSql = upsertFrom(`json_populate_recordset(NULL::${table}, $1::json) AS r`);
  // One index probe per key (the key is the table's unique key, so LIMIT 1 loses nothing). The plan
  // is generic (prepared) and json_populate_recordset is estimated at 100 rows whatever it holds, so
  // the plain `(key) IN (SELECT …)` was planned as a hash join over a sequential scan of the whole
  // table for any table of a few thousand rows: 1.4 ms per lookup of the sessions at 100k events
  // (pg_stat_statements, BENCHMARKS.md round 11), where a probe per key takes a few µs. LATERAL with
  // LIMIT is not flattened into a join, so the probe per key is the plan whatever the estimates.
  const keyMatch = keyColumns.map((name) => `r."${name}" = k."${name}"`).join(' AND ');
  const findSql = `SELECT ${allNames.map((name) => `t."${name}"`).join(', ')}
    FROM (SELECT DISTINCT ${quoted(keyColumns)}
            FROM json_populate_recordset(NULL::${table}, $1::json)) AS k
    CROSS JOIN LATERAL (SELECT * FROM ${table} AS r WHERE ${keyMatch} LIMIT 1) AS t`;
  return {
    findByKeys: async (keys) => {
      if (keys.length === 0) return [];
      const raw = await preparedQuery<Record<string, unknown>>(manager, findSql, [asJson(keys)]);
      return raw.map((row) => fromDatabaseRow<Row>(columns, row));
    },
    deleteWhere: async (criteria) => {
      await manager.delete(projection.entity, criteria);
    },
    upsert: async (rows) => {
      if (rows.length > 0) await preparedQuery(manager, upsertSql, [asJson(rows)]);
    },
    guardedUpsert: (rows) => ({ table, rows: asJson(rows), into: upsertFrom }),
  };
}

/**
 * The row keyed by column names; an absent value takes the column's default, as an INSERT would
 * (json_populate_recordset would otherwise give NULL).
 */
function toDatabaseRow(
  columns: readonly ColumnMetadata[],
  row: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column.propertyName];
    if (value !== undefined) out[column.databaseName] = value;
    else if (column.default !== undefined && typeof column.default !== 'function') {
      out[column.databaseName] = column.default;
    }
  }
  return out;
}

/** pg already gives TypeORM's types for these columns (bigint as string, timestamptz as Date). */
export function fromDatabaseRow<Row>(
  columns: readonly ColumnMetadata[],
  raw: Record<string, unknown>,
): Row {
  const row: Record<string, unknown> = {};
  for (const column of columns) row[column.propertyName] = raw[column.databaseName];
  return row as Row;
}
