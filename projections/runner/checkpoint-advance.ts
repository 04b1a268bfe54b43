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
 * Moves a checkpoint in one statement that also locks its row until the transaction ends (one
 * writer per projection at a time), checks the fence and makes the write if the checkpoint moved.
 * The transaction commits without waiting for its WAL to be flushed: read models and their
 * checkpoints are derived data, and a server crash that loses the last batches loses their
 * checkpoints with them, so the runners apply them again (see ARCHITECTURE.md).
 *
 * Outside a transaction the statement is a named prepared one: its text is the same at every batch
 * of a projection (the rows are one JSON parameter), so PostgreSQL plans it once per connection.
 * Statements grouping several runners' batches were tried and measured worse at the head of the log:
 * each group's text was new, and planning it cost as much as running it (BENCHMARKS.md, round 5).
 */
export async function advanceCheckpoint(
  manager: EntityManager,
  advance: CheckpointAdvance,
): Promise<Advance> {
  const params: unknown[] = [];
  const parameter = (value: unknown) => `$${params.push(value)}`;
  const fence = advance.fence?.(1) ?? { sql: 'true', params: [] };
  params.push(...fence.params);
  const write = advance.write?.(params.length + 1, 'EXISTS (SELECT 1 FROM advanced)');
  params.push(...(write?.params ?? []));
  const text = `WITH fence AS (SELECT ${fence.sql} AS may_write),
      advanced AS (
        UPDATE projection_checkpoints SET position = ${parameter(advance.to.toString())}, updated_at = now()
        WHERE name = ${parameter(advance.name)} AND position = ${parameter(advance.from.toString())}
          AND (SELECT may_write FROM fence)
        RETURNING 1
      )${write ? `, written AS (${write.sql})` : ''}
     SELECT CASE WHEN NOT (SELECT may_write FROM fence) THEN 'fenced'
                 WHEN EXISTS (SELECT 1 FROM advanced) THEN 'advanced' ELSE 'moved' END AS outcome,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit`;
  const [row] = await preparedQuery<{ outcome: Advance }>(manager, text, params);
  return row!.outcome;
}
