import { preparedQuery } from '@engram/database';
import type { EntityManager } from 'typeorm';
import type { SqlPart } from './row-table';

/** An SQL boolean expression, its parameters numbered from `first`. */
export type SqlCondition = (first: number) => SqlPart;

/** A projection batch's checkpoint move, and the write that goes with it. */
export type CheckpointAdvance = Readonly<{
  name: string;
  from: bigint;
  to: bigint;
  /** False when this runner may no longer write (its worker lost the partition's lease). */
  fence?: SqlCondition;
  /** Made by the same statement, only if the checkpoint advanced (`guard`). */
  write?: (first: number, guard: string) => SqlPart;
}>;

/** 'moved': the checkpoint was no longer at `from` (another runner, a rebuild); 'fenced': the fence was false. */
export type Advance = 'advanced' | 'moved' | 'fenced';

/**
 * Moves checkpoints in one statement that also locks their rows until the transaction ends (one
 * writer per projection at a time), checks each fence and makes each write whose checkpoint moved.
 * The transaction commits without waiting for its WAL to be flushed: read models and their
 * checkpoints are derived data, and a server crash that loses the last batches loses their
 * checkpoints with them, so the runners apply them again (see ARCHITECTURE.md).
 *
 * One batch's statement outside a transaction is a named prepared statement: its text is the same
 * at every batch of a projection (the rows are one JSON parameter), so PostgreSQL plans it once per
 * connection; planning was as costly as running it (BENCHMARKS.md, round 5). A group's text depends
 * on which runners met, so it is planned each time.
 */
export async function advanceCheckpoints(
  manager: EntityManager,
  advances: readonly CheckpointAdvance[],
): Promise<Advance[]> {
  const params: unknown[] = [];
  const parameter = (value: unknown) => `$${params.push(value)}`;
  const parts = advances.map((advance, i) => {
    const fence = advance.fence?.(params.length + 1) ?? { sql: 'true', params: [] };
    params.push(...fence.params);
    const write = advance.write?.(params.length + 1, `EXISTS (SELECT 1 FROM advanced_${i})`);
    params.push(...(write?.params ?? []));
    return `fence_${i} AS (SELECT ${fence.sql} AS may_write),
      advanced_${i} AS (
        UPDATE projection_checkpoints SET position = ${parameter(advance.to.toString())}, updated_at = now()
        WHERE name = ${parameter(advance.name)} AND position = ${parameter(advance.from.toString())}
          AND (SELECT may_write FROM fence_${i})
        RETURNING 1
      )${write ? `, written_${i} AS (${write.sql})` : ''}`;
  });
  const outcomes = advances.map(
    (_, i) => `CASE WHEN NOT (SELECT may_write FROM fence_${i}) THEN 'fenced'
                    WHEN EXISTS (SELECT 1 FROM advanced_${i}) THEN 'advanced' ELSE 'moved' END`,
  );
  const text = `WITH ${parts.join(',\n')}
     SELECT ARRAY[${outcomes.join(', ')}] AS outcomes,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit`;
  const rows =
    advances.length === 1
      ? await preparedQuery<{ outcomes: Advance[] }>(manager, text, params)
      : await manager.query<{ outcomes: Advance[] }[]>(text, params);
  return rows[0]!.outcomes;
}

/** One batch's advance (a prepared statement outside a transaction). */
export async function advanceCheckpoint(
  manager: EntityManager,
  advance: CheckpointAdvance,
): Promise<Advance> {
  const [outcome] = await advanceCheckpoints(manager, [advance]);
  return outcome!;
}
