import { Client } from 'pg';

export type LedgerSnapshot = Readonly<{ head: string; count: number }>;

/**
 * Reads the `events` table as its owner, to tell what one request wrote. Background work (reactors,
 * schedulers, the memory-usage flush) appends at any time, so a request's writes are recognised by
 * its own X-Correlation-Id, which every event it causes carries; deletions show as a count that drops
 * by more than what was appended.
 */
export class EventLedger {
  private constructor(private readonly client: Client) {}

  static async open(ownerUrl: string): Promise<EventLedger> {
    const client = new Client({ connectionString: ownerUrl });
    await client.connect();
    return new EventLedger(client);
  }

  async snapshot(): Promise<LedgerSnapshot> {
    const { rows } = await this.client.query<{ head: string; count: string }>(
      'SELECT coalesce(max(global_position), 0)::text AS head, count(*) AS count FROM events',
    );
    return { head: rows[0]!.head, count: Number(rows[0]!.count) };
  }

  /** What changed since `before`: events appended by the correlation id, and events removed. */
  async changesSince(
    before: LedgerSnapshot,
    correlationId: string,
  ): Promise<{ appendedByRequest: number; removed: number }> {
    const { rows } = await this.client.query<{ appended: string; mine: string; count: string }>(
      `SELECT count(*) FILTER (WHERE global_position > $1::bigint) AS appended,
              count(*) FILTER (WHERE metadata->>'correlationId' = $2) AS mine,
              count(*) AS count
         FROM events`,
      [before.head, correlationId],
    );
    const { appended, mine, count } = rows[0]!;
    return {
      appendedByRequest: Number(mine),
      removed: before.count + Number(appended) - Number(count),
    };
  }

  /** Projections (not reactors) whose checkpoint is not at the head of the store. */
  async projectionsBehind(names: readonly string[]): Promise<string[]> {
    const { rows } = await this.client.query<{ name: string }>(
      `SELECT n.name
         FROM unnest($1::text[]) AS n(name)
         LEFT JOIN projection_checkpoints c ON c.name = n.name
        WHERE coalesce(c.position, 0) < (SELECT coalesce(max(global_position), 0) FROM events)`,
      [names],
    );
    return rows.map((row) => row.name);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
