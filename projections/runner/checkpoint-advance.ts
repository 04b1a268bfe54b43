import { pipelinedTransaction, preparedQuery } from '@engram/database';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import type { GuardedUpsert, SqlPart } from './row-table';

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
  /** Made by the same statement, only if the checkpoint advanced. */
  upsert?: GuardedUpsert;
}>;

/** 'moved': the checkpoint was no longer at `from` (another runner, a rebuild); 'fenced': the fence was false. */
export type Advance = 'advanced' | 'moved' | 'fenced';

type Statement = { text: string; values: unknown[] };

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
function advanceStatement(advance: CheckpointAdvance): Statement {
  const values: unknown[] = [];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  const fence = advance.fence?.(values.length + 1) ?? { sql: 'true', params: [] };
  values.push(...fence.params);
  const upsert = advance.upsert;
  const written = upsert
    ? `, written AS (${upsert.into(
        `json_populate_recordset(NULL::${upsert.table}, ${parameter(upsert.rows)}::json) AS r
         WHERE EXISTS (SELECT 1 FROM advanced)`,
      )})`
    : '';
  const text = `WITH fence AS (SELECT ${fence.sql} AS may_write),
      advanced AS (
        UPDATE projection_checkpoints SET position = ${parameter(advance.to.toString())}, updated_at = now()
        WHERE name = ${parameter(advance.name)} AND position = ${parameter(advance.from.toString())}
          AND (SELECT may_write FROM fence)
        RETURNING 1
      )${written}
     SELECT CASE WHEN NOT (SELECT may_write FROM fence) THEN 'fenced'
                 WHEN EXISTS (SELECT 1 FROM advanced) THEN 'advanced' ELSE 'moved' END AS outcome,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit`;
  return { text, values };
}

/**
 * Several batches' advances in one transaction and one round trip (`pipelinedTransaction`, on a
 * pipeline pool): the batches that upsert into one table (the partitions of one projection) in one
 * statement, the checkpoint-only moves in another, any other batch in its own. Each statement's
 * text is fixed (batches are arrays, rows JSON), so it is prepared once per connection. A group was
 * once one statement made of all its batches: its text changed with the runners that met, so
 * PostgreSQL planned it at every group, and planning (tens of CTEs) cost more than running it (3.9
 * against 2.9 ms per group, BENCHMARKS.md round 8). Then one statement per batch: with four
 * partitions a group at the head held four statements per projection where one partition needs one
 * (round 18). Merged, the statements per group fell to one per projection; the CPU per message and the
 * lag did not move (round 19), but the round trips' work is less.
 */
export async function advanceCheckpoints(
  pipeline: Pool,
  advances: readonly CheckpointAdvance[],
): Promise<Advance[]> {
  const sets = togetherSets(advances);
  const statements = sets.map((set) =>
    set.length === 1
      ? advanceStatement(advances[set[0]!]!)
      : setStatement(set.map((i) => advances[i]!)),
  );
  const results = await pipelinedTransaction<{ outcome: Advance }>(pipeline, statements);
  const outcomes: Advance[] = [];
  sets.forEach((set, k) => set.forEach((i, j) => (outcomes[i] = results[k]![j]!.outcome)));
  return outcomes;
}

/**
 * The group's batches cut into the sets that go in one statement: those with the same table to
 * upsert into (or none), unfenced or fenced alike by a `KeyedFence`, each checkpoint once per set;
 * any other batch a set of its own. At the head of the log most of a group's batches are
 * checkpoint-only moves (5 of the 8.3 statements a worker sent per message at 1M events,
 * BENCHMARKS.md round 14), and the others small upserts of a few partitions of the same projections.
 */
function togetherSets(advances: readonly CheckpointAdvance[]): number[][] {
  let held: string | undefined;
  const sets = new Map<string, { names: Set<string>; members: number[] }>();
  const alone: number[][] = [];
  advances.forEach((advance, i) => {
    if (advance.fence) {
      if (!isKeyed(advance.fence)) return void alone.push([i]);
      const on = advance.fence.on('m.fence_key', 'm.fence_holder');
      if ((held ??= on) !== on) return void alone.push([i]);
    }
    const table = advance.upsert?.table ?? '';
    const set = sets.get(table) ?? { names: new Set<string>(), members: [] };
    if (set.names.has(advance.name)) return void alone.push([i]);
    set.names.add(advance.name);
    set.members.push(i);
    sets.set(table, set);
  });
  return [...alone, ...[...sets.values()].map((set) => set.members)];
}

/**
 * A set's advances in one statement, its text the same whatever their number (the advances are
 * arrays, their rows one JSON array of arrays), so prepared once: each checkpoint moved only if
 * still at its `from` and its fence holds (rows locked as `advanceStatement` locks them), the rows
 * of those that moved upserted, the outcomes in the order given.
 */
function setStatement(set: readonly CheckpointAdvance[]): Statement {
  const fences = set.map((advance) => advance.fence as KeyedFence | undefined);
  const held = fences.find(Boolean)?.on('m.fence_key', 'm.fence_holder') ?? 'true';
  const upsert = set[0]!.upsert;
  const written = upsert
    ? `, written AS (${upsert.into(
        `json_array_elements($6::json) WITH ORDINALITY AS w(rows, i)
         JOIN advanced a ON a.i = w.i
         CROSS JOIN LATERAL json_populate_recordset(NULL::${upsert.table}, w.rows) AS r`,
      )})`
    : '';
  const text = `WITH checked AS MATERIALIZED (
        SELECT m.name, m.from_position, m.to_position, m.i,
               (m.fence_key IS NULL OR ${held}) AS may_write
          FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[])
               WITH ORDINALITY AS m(name, from_position, to_position, fence_key, fence_holder, i)
      ), advanced AS (
        UPDATE projection_checkpoints c SET position = k.to_position, updated_at = now()
          FROM checked k
         WHERE c.name = k.name AND c.position = k.from_position AND k.may_write
        RETURNING k.i
      )${written}
     SELECT CASE WHEN NOT k.may_write THEN 'fenced'
                 WHEN EXISTS (SELECT 1 FROM advanced a WHERE a.i = k.i) THEN 'advanced'
                 ELSE 'moved' END AS outcome,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit
       FROM checked k ORDER BY k.i`;
  const values: unknown[] = [
    set.map((advance) => advance.name),
    set.map((advance) => advance.from.toString()),
    set.map((advance) => advance.to.toString()),
    fences.map((fence) => fence?.key[0] ?? null),
    fences.map((fence) => fence?.key[1] ?? null),
  ];
  if (upsert) values.push(`[${set.map((advance) => advance.upsert!.rows).join(',')}]`);
  return { text, values };
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
