import type { Pool } from 'pg';
import { statementName } from '@engram/event-store';
import type { EntityManager } from 'typeorm';

/**
 * Runs `text` as a named prepared statement on the data source's pool: PostgreSQL parses and plans
 * it once per connection, then only binds and executes it. For the statements a worker sends at
 * every batch, whose text is the same each time (their rows travel as one JSON parameter): planning
 * them cost as much as running them. Inside a transaction (`manager` holds a query runner) the
 * statement goes unnamed through that transaction's connection, as any other.
 *
 * The text must not be built from values (only from code), and must name its columns (not `*`): a
 * prepared statement whose result type changes under it fails until it is prepared again.
 */
export async function preparedQuery<Row extends object>(
  manager: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  if (manager.queryRunner) return manager.query<Row[]>(text, [...values]);
  const pool = (manager.connection.driver as unknown as { master: Pool }).master;
  const result = await pool.query<Row>({ name: statementName(text), text, values: [...values] });
  return result.rows;
}
