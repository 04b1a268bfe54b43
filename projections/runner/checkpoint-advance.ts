import { pipelinedTransaction, preparedQuery } from '@engram/database';
import type { Pool } from 'pg';
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
 * writer per projection at a time), checks the fence and makes the write only if the checkpoint
 * moved. The transaction commits without waiting for its WAL to be flushed: read models and their
 * checkpoints are derived data, and a server crash that loses the last batches loses their
 * checkpoints with them, so the runners apply them again (see ARCHITECTURE.md).
 *
 * The statement is a named prepared statement: its text is the same at every batch of a projection
 * (the rows are one JSON parameter), so PostgreSQL plans it once per connection; planning was as
 * costly as running it (BENCHMARKS.md, round 5).
 */
function advanceStatement(advance: CheckpointAdvance): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  const fence = advance.fence?.(values.length + 1) ?? { sql: 'true', params: [] };
  values.push(...fence.params);
  const write = advance.write?.(values.length + 1, 'EXISTS (SELECT 1 FROM advanced)');
  values.push(...(write?.params ?? []));
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
  return { text, values };
}

/**
 * Several batches' advances in one transaction and one round trip, each its own prepared statement
 * (`pipelinedTransaction`, on a pipeline pool). They were once one statement made of them all: its
 * text changed with the runners that met, so PostgreSQL planned it at every group, and planning
 * such a statement (tens of CTEs) cost more than running it: 3.9 ms of planning against 2.9 ms of
 * execution per group at 400 appends/s (pg_stat_statements, BENCHMARKS.md round 8). Sent one after
 * the other instead, they cost a round trip each, and the worker fell behind the head.
 */
export async function advanceCheckpoints(
  pipeline: Pool,
  advances: readonly CheckpointAdvance[],
): Promise<Advance[]> {
  const results = await pipelinedTransaction<{ outcome: Advance }>(
    pipeline,
    advances.map(advanceStatement),
  );
  return results.map((rows) => rows[0]!.outcome);
}

/** One batch's advance (a prepared statement outside a transaction). */
export async function advanceCheckpoint(
  manager: EntityManager,
  advance: CheckpointAdvance,
): Promise<Advance> {
  const { text, values } = advanceStatement(advance);
  const [row] = await preparedQuery<{ outcome: Advance }>(manager, text, values);
  return row!.outcome;
}
