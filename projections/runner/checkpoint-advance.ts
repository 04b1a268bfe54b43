import { pipelinedTransaction, preparedQuery } from '@engram/database';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import type { SqlPart } from './row-table';

/** An SQL boolean expression, its parameters numbered from `first`. */
export type SqlCondition = (first: number) => SqlPart;

/**
 * A fence keyed by two values (a lease: its name and its holder), which a group can check for many
 * batches in one statement: `on` is the same condition over two SQL expressions (a relation's
 * columns holding each batch's `key`) instead of parameters.
 */
export type KeyedFence = SqlCondition &
  Readonly<{ key: readonly [string, string]; on: (first: string, second: string) => string }>;

function isKeyed(fence: SqlCondition): fence is KeyedFence {
  return 'key' in fence && 'on' in fence;
}

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
  const together = movedTogether(advances);
  const merged = new Set(together);
  const alone = advances.flatMap((advance, i) => (merged.has(i) ? [] : [i]));
  const statements = alone.map((i) => advanceStatement(advances[i]!));
  if (together.length > 0) statements.push(movesStatement(together.map((i) => advances[i]!)));
  const results = await pipelinedTransaction<{ outcome: Advance }>(pipeline, statements);
  const outcomes: Advance[] = [];
  alone.forEach((i, k) => (outcomes[i] = results[k]![0]!.outcome));
  results[alone.length]?.forEach((row, k) => (outcomes[together[k]!] = row.outcome));
  return outcomes;
}

/**
 * The group's checkpoint-only moves (a batch with nothing to write) that can go in one statement:
 * unfenced or fenced alike by a `KeyedFence`, each checkpoint once; none unless two or more. At the
 * head of the log most of a group's batches are such moves (5 of the 8.3 statements a worker sent per
 * message at 1M events, BENCHMARKS.md round 14): one statement for them saves a statement's round
 * of parse, bind and execute each, in the worker and in PostgreSQL.
 */
function movedTogether(advances: readonly CheckpointAdvance[]): number[] {
  let held: string | undefined;
  const names = new Set<string>();
  const together: number[] = [];
  advances.forEach((advance, i) => {
    if (advance.write || names.has(advance.name)) return;
    if (advance.fence) {
      if (!isKeyed(advance.fence)) return;
      const on = advance.fence.on('m.fence_key', 'm.fence_holder');
      if ((held ??= on) !== on) return;
    }
    names.add(advance.name);
    together.push(i);
  });
  return together.length >= 2 ? together : [];
}

/**
 * Checkpoint-only moves in one statement, its text the same whatever their number (the moves are
 * arrays), so prepared once: each moved only if still at its `from` and its fence holds (rows are
 * locked as `advanceStatement` locks them), the outcomes in the order given.
 */
function movesStatement(moves: readonly CheckpointAdvance[]): { text: string; values: unknown[] } {
  const fences = moves.map((move) => move.fence as KeyedFence | undefined);
  const held = fences.find(Boolean)?.on('m.fence_key', 'm.fence_holder') ?? 'true';
  const text = `WITH checked AS MATERIALIZED (
        SELECT m.name, m.from_position, m.to_position, m.i,
               (m.fence_key IS NULL OR ${held}) AS may_write
          FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[])
               WITH ORDINALITY AS m(name, from_position, to_position, fence_key, fence_holder, i)
      ), advanced AS (
        UPDATE projection_checkpoints c SET position = k.to_position, updated_at = now()
          FROM checked k
         WHERE c.name = k.name AND c.position = k.from_position AND k.may_write
        RETURNING c.name
      )
     SELECT CASE WHEN NOT k.may_write THEN 'fenced'
                 WHEN EXISTS (SELECT 1 FROM advanced a WHERE a.name = k.name) THEN 'advanced'
                 ELSE 'moved' END AS outcome,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit
       FROM checked k ORDER BY k.i`;
  return {
    text,
    values: [
      moves.map((move) => move.name),
      moves.map((move) => move.from.toString()),
      moves.map((move) => move.to.toString()),
      fences.map((fence) => fence?.key[0] ?? null),
      fences.map((fence) => fence?.key[1] ?? null),
    ],
  };
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
