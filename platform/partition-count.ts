import { Logger } from '@nestjs/common';
import { agreePartitionCount } from '@engram/projections';
import type { DataSource } from 'typeorm';

/** The database's partition count (recorded by the first worker), warning when it is not the configured one. */
export async function partitionCountFor(
  dataSource: DataSource,
  configured: number,
): Promise<number> {
  const recorded = await agreePartitionCount(dataSource.manager, configured);
  if (recorded !== configured) {
    new Logger('Worker').warn(
      `ENGRAM_PARTITIONS is ${configured} but this database runs ${recorded} partitions: using ` +
        `${recorded} (see ARCHITECTURE.md, "Partitions and parked events", to change it)`,
    );
  }
  return recorded;
}
