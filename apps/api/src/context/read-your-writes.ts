import { ServiceUnavailableException } from '@nestjs/common';
import { waitForCheckpoints } from '@engram/projections';
import type { DataSource } from 'typeorm';

/**
 * Read-your-writes: waits (bounded) until the projections a read uses have applied `position`.
 * Past the bound it answers 503 with Retry-After rather than stale data.
 */
export async function awaitPosition(
  dataSource: DataSource,
  projections: readonly string[],
  position: bigint,
  timeoutMs = 2000,
): Promise<void> {
  const behind = await waitForCheckpoints(dataSource, projections, position, timeoutMs);
  if (behind.length > 0) {
    throw new ServiceUnavailableException(
      `The read models have not reached position ${position} yet (${behind.join(', ')}); retry shortly`,
    );
  }
}
