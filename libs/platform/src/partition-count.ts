import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * The number of partitions is the database's: the first worker records ENGRAM_PARTITIONS, and every
 * later process uses the recorded number, since checkpoints and leases are named after it (a
 * different number would start new partitions from position 0). Changing it needs a rebuild.
 */
export async function agreePartitionCount(
  dataSource: DataSource,
  configured: number,
): Promise<number> {
  await dataSource.query(
    `INSERT INTO engram_settings (key, value) VALUES ('partitions', $1) ON CONFLICT (key) DO NOTHING`,
    [String(configured)],
  );
  const rows = await dataSource.query<{ value: string }[]>(
    `SELECT value FROM engram_settings WHERE key = 'partitions'`,
  );
  const recorded = Number(rows[0]?.value ?? configured);
  if (recorded !== configured) {
    new Logger('Worker').warn(
      `ENGRAM_PARTITIONS is ${configured} but this database runs ${recorded} partitions: using ` +
        `${recorded} (see ARCHITECTURE.md, "Partitions and parked events", to change it)`,
    );
  }
  return recorded;
}
