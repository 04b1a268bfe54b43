import type { EntityManager } from 'typeorm';

/** The partition count a worker recorded in this database, if one did. */
export async function recordedPartitionCount(
  manager: Pick<EntityManager, 'query'>,
): Promise<number | undefined> {
  const rows = await manager.query<{ value: string }[]>(
    `SELECT value FROM engram_settings WHERE key = 'partitions'`,
  );
  return rows[0] === undefined ? undefined : Number(rows[0].value);
}

/**
 * The number of partitions is the database's: the first worker records ENGRAM_PARTITIONS, and every
 * later process uses the recorded number, since checkpoints and leases are named after it (another
 * number would start new partitions from position 0 beside the old ones). Changing it needs a rebuild.
 */
export async function agreePartitionCount(
  manager: Pick<EntityManager, 'query'>,
  configured: number,
): Promise<number> {
  await manager.query(
    `INSERT INTO engram_settings (key, value) VALUES ('partitions', $1) ON CONFLICT (key) DO NOTHING`,
    [String(configured)],
  );
  return (await recordedPartitionCount(manager)) ?? configured;
}

/** A runner cut for another partition count than the database's would apply events twice. */
export class PartitionCountMismatchError extends Error {
  override readonly name = 'PartitionCountMismatchError';
  constructor(runner: string, count: number, recorded: number) {
    super(
      `${runner} runs as one of ${count} partitions but this database runs ${recorded}: ` +
        'its rows would be applied twice; use the recorded count (ENGRAM_PARTITIONS is read once)',
    );
  }
}
