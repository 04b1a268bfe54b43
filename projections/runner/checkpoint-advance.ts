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
  const rows = await manager.query<{ outcomes: Advance[] }[]>(
    `WITH ${parts.join(',\n')}
     SELECT ARRAY[${outcomes.join(', ')}] AS outcomes,
            set_config('synchronous_commit', 'off', true) AS synchronous_commit`,
    params,
  );
  return rows[0]!.outcomes;
}
