import type { KeyedFence } from '@engram/projections';

/** Anything that runs SQL: a DataSource, or the EntityManager of an open transaction. */
export type Sql = Readonly<{
  query: <T = unknown>(sql: string, parameters?: unknown[]) => Promise<T>;
}>;

/**
 * The lease rows and worker heartbeats; every time comparison uses the database's clock. UPDATEs that
 * return rows are wrapped in a CTE because TypeORM's query() returns [rows, count] for a bare UPDATE.
 */
export const leaseTable = {
  async ensurePartitions(sql: Sql, names: readonly string[]): Promise<void> {
    await sql.query(
      `INSERT INTO worker_leases (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`,
      [names],
    );
  },

  /**
   * Records that `workerId` is alive and runs `roles`, and forgets workers silent for ten lease
   * periods.
   */
  async heartbeat(
    sql: Sql,
    workerId: string,
    roles: readonly string[],
    ttlSeconds: number,
  ): Promise<void> {
    await sql.query(
      `INSERT INTO worker_instances (id, roles) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), roles = excluded.roles`,
      [workerId, roles],
    );
    await sql.query(
      `DELETE FROM worker_instances WHERE heartbeat_at < now() - make_interval(secs => $1)`,
      [ttlSeconds * 10],
    );
  },

  /** How many live workers run each role. */
  async liveWorkersByRole(sql: Sql, ttlSeconds: number): Promise<Map<string, number>> {
    const rows = await sql.query<{ role: string; count: string }[]>(
      `SELECT role, count(*) FROM worker_instances, unnest(roles) AS role
       WHERE heartbeat_at > now() - make_interval(secs => $1)
       GROUP BY role`,
      [ttlSeconds],
    );
    return new Map(rows.map((row) => [row.role, Number(row.count)]));
  },

  /** Extends the leases `workerId` still holds; returns their names (a missing one was lost). */
  async renew(
    sql: Sql,
    workerId: string,
    names: readonly string[],
    ttlSeconds: number,
  ): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows = await sql.query<{ name: string }[]>(
      `WITH renewed AS (
         UPDATE worker_leases SET expires_at = now() + make_interval(secs => $3)
         WHERE name = ANY($2::text[]) AND holder = $1 AND expires_at > now()
         RETURNING name
       ) SELECT name FROM renewed`,
      [workerId, names, ttlSeconds],
    );
    return new Set(rows.map((row) => row.name));
  },

  /** Partitions nobody holds (never taken, released, or whose holder stopped renewing). */
  async free(sql: Sql, names: readonly string[]): Promise<string[]> {
    const rows = await sql.query<{ name: string }[]>(
      `SELECT name FROM worker_leases
       WHERE name = ANY($1::text[]) AND (holder IS NULL OR expires_at <= now())
       ORDER BY name`,
      [names],
    );
    return rows.map((row) => row.name);
  },

  /**
   * Takes those of `names` that are free, in one statement; returns the ones taken (another worker
   * may have got some first). The rows are locked FOR UPDATE first (in name order, so two workers
   * never deadlock), which waits for the projection batches still in flight under the previous
   * holder (see `heldBy`); a row taken meanwhile by another worker is no longer free once unlocked.
   */
  async acquire(
    sql: Sql,
    workerId: string,
    names: readonly string[],
    ttlSeconds: number,
  ): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await sql.query<{ name: string }[]>(
      `WITH free AS (
         SELECT name FROM worker_leases
         WHERE name = ANY($2::text[]) AND (holder IS NULL OR expires_at <= now())
         ORDER BY name
         FOR UPDATE
       ), acquired AS (
         UPDATE worker_leases
         SET holder = $1, expires_at = now() + make_interval(secs => $3),
             generation = generation + 1, acquired_at = now()
         WHERE name IN (SELECT name FROM free) AND (holder IS NULL OR expires_at <= now())
         RETURNING name
       ) SELECT name FROM acquired`,
      [workerId, names, ttlSeconds],
    );
    return rows.map((row) => row.name);
  },

  async release(sql: Sql, workerId: string, names: readonly string[]): Promise<void> {
    await sql.query(
      `UPDATE worker_leases SET holder = NULL, expires_at = '-infinity'
       WHERE name = ANY($2::text[]) AND holder = $1`,
      [workerId, names],
    );
  },

  async forget(sql: Sql, workerId: string): Promise<void> {
    await sql.query('DELETE FROM worker_instances WHERE id = $1', [workerId]);
  },

  /**
   * An SQL condition for a statement: true while `workerId` holds the lease, and keeps it from being
   * taken over until the transaction ends (a takeover locks the row FOR UPDATE, so it waits, then sees
   * the renewed or released row). Projection batches check it in the statement that advances their
   * checkpoint, so a worker paused past its lease writes nothing. The lock is FOR KEY SHARE, which the
   * holder's own renewal (an UPDATE of no key column) does not wait for: a renewal never queues
   * behind batches, nor batches behind it, even when one statement checks several leases.
   */
  heldBy(workerId: string, name: string): KeyedFence {
    // Keyed: a group's checkpoint-only moves check their leases in one statement.
    const on = (lease: string, holder: string) =>
      `EXISTS (SELECT 1 FROM worker_leases
                WHERE name = ${lease} AND holder = ${holder} AND expires_at > now()
                FOR KEY SHARE)`;
    const condition = (first: number) => ({
      sql: on(`$${first}`, `$${first + 1}`),
      params: [name, workerId],
    });
    return Object.assign(condition, { key: [name, workerId] as const, on });
  },
};
