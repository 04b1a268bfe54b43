import { checkpointsFor } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import type { ReadOwner } from './wait-for-projections';

/**
 * The row of read model `projection` with `key` (its owner's columns among them), as of `position` or
 * later, from the row cache of the runner that keeps it in this worker: no statement for a row the
 * runner has just written (a session at each of its messages). Undefined when that runner does not
 * run here, has not committed `position`, or does not hold the row: then read the table, after
 * `waitForProjections` as always.
 */
export function committedRow<Row extends object>(
  deps: Pick<ProcessManagerDependencies, 'committed' | 'partitions'>,
  projection: string,
  key: Readonly<Partial<Row>> & ReadOwner,
  position: bigint,
): Readonly<Row> | undefined {
  if (!deps.committed) return undefined;
  const [name] = checkpointsFor([projection], key, deps.partitions ?? 1);
  return deps.committed.rowAt<Row>(name!, key, position);
}
