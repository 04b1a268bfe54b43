import { preparedQuery } from '@engram/database';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { fromDatabaseRow } from './row-table';

type Column<Row> = keyof Row & string;

/** Which rows of a read model to read: equal on `where`, one column in a list, ordered, limited. */
export type RowQuery<Row> = Readonly<{
  where: Readonly<Partial<Record<Column<Row>, unknown>>>;
  anyOf?: Readonly<{ column: Column<Row>; values: readonly unknown[] }>;
  orderBy?: readonly (readonly [Column<Row>, 'ASC' | 'DESC'])[];
  limit?: number;
}>;

/**
 * The rows of a read model that `query` names, as TypeORM's `find` gives them (property names,
 * pg's types: bigint as string, timestamptz as Date), in one statement whose text depends only on
 * the query's shape: outside a transaction a prepared statement, planned once per connection. For
 * the reads process managers make at every message (TypeORM's query building and PostgreSQL's
 * planning were most of their cost); under RLS, in the caller's transaction, as any other read.
 */
export async function readRows<Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  query: RowQuery<Row>,
): Promise<Row[]> {
  const metadata = manager.connection.getMetadata(entity);
  const columnOf = (property: string) => {
    const column = metadata.columns.find((candidate) => candidate.propertyName === property);
    if (!column) throw new Error(`${metadata.tableName} has no column for ${property}`);
    return `"${column.databaseName}"`;
  };
  const values: unknown[] = [];
  const conditions = Object.entries(query.where).map(
    ([property, value]) => `${columnOf(property)} = $${values.push(value)}`,
  );
  if (query.anyOf) {
    conditions.push(`${columnOf(query.anyOf.column)} = ANY($${values.push(query.anyOf.values)})`);
  }
  const order = (query.orderBy ?? []).map(([property, way]) => `${columnOf(property)} ${way}`);
  const text =
    `SELECT ${metadata.columns.map((column) => `"${column.databaseName}"`).join(', ')}` +
    ` FROM "${metadata.tableName}"` +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
    (order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '') +
    (query.limit !== undefined ? ` LIMIT $${values.push(query.limit)}` : '');
  const raw = await preparedQuery<Record<string, unknown>>(manager, text, values);
  return raw.map((row) => fromDatabaseRow<Row>(metadata.columns, row));
}
