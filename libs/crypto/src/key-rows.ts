import type { Pool } from 'pg';

/** A data key as stored: wrapped by the master key (null once destroyed), and by which one. */
export type KeyRow = Readonly<{ wrapped_key: Buffer | null; key_version: number }>;

type Waiting = Readonly<{
  resolve: (row: KeyRow | undefined) => void;
  reject: (error: unknown) => void;
}>;

/** One owner's key, as the key store's cache and its reads name it. */
export function ownerKeyId(workspaceId: string, userId: string): string {
  return `${workspaceId}\u0000${userId}`;
}

type Read = { readonly workspaceId: string; readonly userId: string; readonly waiting: Waiting[] };

/**
 * Reads the data-key rows of owners, those asked for in one turn of the event loop together: one
 * prepared statement for all of them. A worker decodes a page of events at once, and at 10,000
 * users most owners of a page are not in the key cache after a restart: read one by one (a round
 * trip and, unprepared, a plan each), the reads alone put a restarted worker 6–7 s behind 1,000
 * appends a second, where read together it stays within 0.3 s (BENCHMARKS.md, round 9). Concurrent
 * requests of the API share a read the same way.
 */
export class KeyRowReader {
  private reads = new Map<string, Read>();

  constructor(private readonly pool: Pool) {}

  /** The owner's row; undefined when they have none. A failed read rejects all who shared it. */
  read(workspaceId: string, userId: string): Promise<KeyRow | undefined> {
    return new Promise((resolve, reject) => {
      if (this.reads.size === 0) setImmediate(() => void this.readTogether());
      const id = ownerKeyId(workspaceId, userId);
      let read = this.reads.get(id);
      if (!read) this.reads.set(id, (read = { workspaceId, userId, waiting: [] }));
      read.waiting.push({ resolve, reject });
    });
  }

  private async readTogether(): Promise<void> {
    const reads = [...this.reads.values()];
    this.reads = new Map();
    try {
      const { rows } = await this.pool.query<KeyRow & { workspace_id: string; user_id: string }>({
        name: 'engram_data_keys_of_owners',
        text: `SELECT k.workspace_id, k.user_id, k.wrapped_key, k.key_version
                 FROM unnest($1::text[], $2::text[]) AS o (workspace_id, user_id)
                 JOIN data_keys k USING (workspace_id, user_id)`,
        values: [reads.map((read) => read.workspaceId), reads.map((read) => read.userId)],
      });
      const found = new Map(rows.map((row) => [ownerKeyId(row.workspace_id, row.user_id), row]));
      for (const read of reads) {
        const row = found.get(ownerKeyId(read.workspaceId, read.userId));
        const stored = row && { wrapped_key: row.wrapped_key, key_version: row.key_version };
        for (const waiting of read.waiting) waiting.resolve(stored);
      }
    } catch (error) {
      for (const read of reads) for (const waiting of read.waiting) waiting.reject(error);
    }
  }
}
