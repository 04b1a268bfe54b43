import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * A row that PostgreSQL rendered as JSON (row_to_json: column names, timestamps as text, bigint as a
 * number) as the entity TypeORM would have loaded: property names, Date, bigint as a decimal string.
 */
export function fromJsonRow<Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  json: Record<string, unknown>,
): Row {
  const row: Record<string, unknown> = {};
  for (const column of manager.connection.getMetadata(entity).columns) {
    const value = json[column.databaseName];
    row[column.propertyName] =
      value === null || value === undefined
        ? null
        : column.type === 'timestamptz'
          ? new Date(value as string)
          : column.type === 'bigint' && typeof value === 'number'
            ? String(value)
            : value;
  }
  return row as Row;
}
