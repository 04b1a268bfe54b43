import { checkpointsFor, waitForCheckpoints } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { RetryLaterError } from './reactor';

export type ReadOwner = Readonly<{ workspaceId: string; userId: string }>;

/**
 * Waits until the named projections have applied every event up to `position` for `owner` (the
 * partition of each that holds the owner, by workspace for workspace-level ones), so that a process
 * manager reads read models that already reflect what it reacts to. A worker that is stopping
 * (`signal`) gives up at once: the reaction is tried again after the restart.
 */
export async function waitForProjections(
  deps: Pick<ProcessManagerDependencies, 'dataSource' | 'committed' | 'partitions'>,
  names: readonly string[],
  owner: ReadOwner,
  position: bigint,
  signal?: AbortSignal,
  timeoutMs = 10_000,
): Promise<void> {
  const checkpoints = checkpointsFor(names, owner, deps.partitions ?? 1);
  const behind = await waitForCheckpoints(deps.dataSource, checkpoints, position, timeoutMs, {
    signal,
    committed: deps.committed,
  });
  if (behind.length > 0) {
    throw new RetryLaterError(
      `projections ${behind.join(', ')} did not reach position ${position}`,
    );
  }
}
