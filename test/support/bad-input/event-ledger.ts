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

  /**
   * Every checkpoint of projection_checkpoints (projections and process managers alike) below `head`
   * (default: the store's head now), and each of `projections` that has none yet; a runner split into
   * partitions names its checkpoints after its projection, hence the prefix match.
   */
  async checkpointsBehind(projections: readonly string[], head?: string): Promise<string[]> {
    const { rows } = await this.client.query<{ behind: string }>(
      `WITH head AS (
         SELECT coalesce($2::bigint, (SELECT max(global_position) FROM events), 0) AS position
       )
       SELECT c.name || ' at ' || c.position || ' of ' || head.position AS behind
         FROM projection_checkpoints c, head
        WHERE c.position < head.position
       UNION ALL
       SELECT n.name || ' has no checkpoint'
         FROM unnest($1::text[]) AS n(name)
        WHERE NOT EXISTS (SELECT 1 FROM projection_checkpoints c WHERE starts_with(c.name, n.name))`,
      [projections, head ?? null],
    );
    return rows.map((row) => row.behind);
  }

  /** Events the runners parked (gave up on); 0 while the parked_events table does not exist. */
  async parkedCount(): Promise<number> {
    const { rows } = await this.client.query<{ present: boolean }>(
      `SELECT to_regclass('parked_events') IS NOT NULL AS present`,
    );
    if (!rows[0]!.present) return 0;
    const parked = await this.client.query<{ count: string }>('SELECT count(*) FROM parked_events');
    return Number(parked.rows[0]!.count);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
