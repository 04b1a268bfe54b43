import { waitForCheckpoints } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { RetryLaterError } from './reactor';

/**
 * Waits until the named projections have applied every event up to `position`, so that a process
 * manager reads read models that already reflect what it reacts to. A worker that is stopping
 * (`signal`) gives up at once: the reaction is tried again after the restart.
 */
export async function waitForProjections(
  deps: Pick<ProcessManagerDependencies, 'dataSource' | 'committed'>,
  names: readonly string[],
  position: bigint,
  signal?: AbortSignal,
  timeoutMs = 10_000,
): Promise<void> {
  const behind = await waitForCheckpoints(deps.dataSource, names, position, timeoutMs, {
    signal,
    committed: deps.committed,
  });
  if (behind.length > 0) {
    throw new RetryLaterError(
      `projections ${behind.join(', ')} did not reach position ${position}`,
    );
  }
}
