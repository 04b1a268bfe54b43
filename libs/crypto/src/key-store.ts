import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { KEY_BYTES, assertMasterKey, masterKeyVersion, unwrapKey, wrapKey } from './aes-gcm';
import { DataKeyDestroyedError, DataKeyMissingError, WrongMasterKeyError } from './errors';
import { KeyRowReader, ownerKeyId, type KeyRow } from './key-rows';
import { LruCache } from './lru';

export type KeyStoreOptions = Readonly<{
  /**
   * Data keys kept in memory (least recently used forgotten first). Default 100,000 (about 10 MB): a
   * worker replaying the log meets every active user in turn, and a cache smaller than that set misses
   * on every event (each miss is a query and an unwrap).
   */
  cacheSize?: number;
  /**
   * How long cached live keys are served before this process checks again that they were not
   * destroyed (by another process): one query for all of them, the keys destroyed since the last
   * check, rather than one per key (a worker replaying the log re-checked every user's key every
   * `ttlMs`). Default 5 s. This is the bound: after `destroyKey` commits elsewhere, this process may
   * still seal or open with that key for at most `ttlMs`.
   */
  ttlMs?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}>;

export type RewrapResult = Readonly<{
  /** Keys re-wrapped from the old master key to the new one. */
  rewrapped: number;
  /** Keys already wrapped by the new master key (a rotation run again after a straggler). */
  alreadyCurrent: number;
  /** Destroyed keys: nothing to re-wrap. */
  destroyed: number;
}>;

type Entry = Readonly<{ state: 'live'; key: Buffer }> | Readonly<{ state: 'destroyed' }>;

const REWRAP_PAGE = 1000;

/**
 * A destruction commits a moment after its `destroyed_at` (the transaction's start): each check
 * looks back this far before the previous one, so none falls between two checks.
 */
const DESTROYED_LOOKBACK = '1 minute';

/**
 * The data keys of the owners (workspace, user), in the `data_keys` table, wrapped by the master key.
 *
 * - A key is created on first write (INSERT … ON CONFLICT DO NOTHING, then SELECT: two processes
 *   creating the same owner's key at once end up with the one that was inserted first).
 * - Keys not cached are read for all the owners asked for in one turn of the event loop together
 *   (`KeyRowReader`: one prepared statement), so a page of events of many users costs one read.
 * - Keys are cached (LRU, bounded). A destroyed key is never served from the cache: `destroyKey`
 *   replaces this process's entry with a tombstone at once; other processes ask which keys were
 *   destroyed since their last check once it is older than `ttlMs` (default 5 s; one query for the
 *   whole cache), and look a key up again whenever a payload fails to open with it.
 * - Destruction is final: the row stays with `wrapped_key` null as a tombstone, so no new key is
 *   created for that owner and writing their personal data fails (`DataKeyDestroyedError`).
 */
export class KeyStore {
  private readonly cache: LruCache<string, Entry>;
  private readonly pending = new Map<string, Promise<Entry | undefined>>();
  private readonly rows: KeyRowReader;
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** This process's clock when the last check of destroyed keys was sent (or the store was made). */
  private checkedAt: number;
  /** The database's clock at the last check; undefined before the first (which reads every tombstone). */
  private checkedSince: Date | undefined;
  private checking: Promise<void> | undefined;
  private master: Buffer;
  private version: number;

  constructor(
    private readonly pool: Pool,
    masterKey: Buffer,
    options: KeyStoreOptions = {},
  ) {
    assertMasterKey(masterKey);
    this.master = masterKey;
    this.version = masterKeyVersion(masterKey);
    this.cache = new LruCache(options.cacheSize ?? 100_000);
    this.rows = new KeyRowReader(pool);
    this.ttlMs = options.ttlMs ?? 5_000;
    this.now = options.now ?? Date.now;
    this.checkedAt = this.now();
  }

  /** The owner's key, created if they have none yet. Throws `DataKeyDestroyedError` after erasure. */
  async keyForWriting(workspaceId: string, userId: string): Promise<Buffer> {
    const entry = await this.entry(workspaceId, userId, true);
    if (entry?.state !== 'live') throw new DataKeyDestroyedError(workspaceId, userId);
    return entry.key;
  }

  /**
   * The owner's key, or undefined when it was destroyed. `fresh` skips the cache (a payload did not
   * open with the cached key). Throws `DataKeyMissingError` when the owner never had a key.
   */
  async keyForReading(
    workspaceId: string,
    userId: string,
    options: Readonly<{ fresh?: boolean }> = {},
  ): Promise<Buffer | undefined> {
    if (options.fresh) {
      const id = ownerKeyId(workspaceId, userId);
      if (this.cache.peek(id)?.state === 'live') this.cache.delete(id);
    }
    const entry = await this.entry(workspaceId, userId, false);
    if (entry === undefined) throw new DataKeyMissingError(workspaceId, userId);
    return entry.state === 'live' ? entry.key : undefined;
  }

  /**
   * Crypto-shredding: the owner's key is destroyed (its row keeps a tombstone), so every payload sealed
   * with it becomes unreadable, here at once and in other processes within `ttlMs`. Idempotent; an
   * owner who never had a key gets the tombstone too, so none is created later.
   */
  async destroyKey(workspaceId: string, userId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO data_keys (workspace_id, user_id, wrapped_key, key_version, destroyed_at)
       VALUES ($1, $2, NULL, $3, now())
       ON CONFLICT (workspace_id, user_id) DO UPDATE
         SET wrapped_key = NULL, destroyed_at = COALESCE(data_keys.destroyed_at, now())`,
      [workspaceId, userId, this.version],
    );
    // A tombstone rather than an eviction: a lookup already in flight cannot put the key back.
    this.cache.set(ownerKeyId(workspaceId, userId), { state: 'destroyed' });
  }

  /**
   * Master-key rotation: every live data key is unwrapped with `oldMaster` and wrapped with
   * `newMaster`, in one transaction (the events are not touched: the data keys do not change). Key
   * creation and destruction wait for it (table lock); reads go on. Keys already wrapped by the new
   * master key are left alone, so running it again after a process created a key with the old master
   * key finishes the job. Any key wrapped by a third master key aborts the whole rotation.
   * This store then uses `newMaster`.
   */
  async rewrapAll(oldMaster: Buffer, newMaster: Buffer): Promise<RewrapResult> {
    assertMasterKey(oldMaster);
    assertMasterKey(newMaster);
    if (oldMaster.equals(newMaster)) throw new Error('the new master key is the old one');
    const oldVersion = masterKeyVersion(oldMaster);
    const newVersion = masterKeyVersion(newMaster);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await rewrapInTransaction(client, {
        oldMaster,
        newMaster,
        oldVersion,
        newVersion,
      });
      await client.query('COMMIT');
      this.master = newMaster;
      this.version = newVersion;
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async entry(
    workspaceId: string,
    userId: string,
    create: boolean,
  ): Promise<Entry | undefined> {
    const id = ownerKeyId(workspaceId, userId);
    const cached = this.cache.get(id);
    if (cached?.state === 'destroyed') return cached;
    if (cached && this.now() - this.checkedAt < this.ttlMs) return cached;
    if (cached) {
      await this.checkDestroyed();
      // Tombstoned by the check, or still live (unless the cache let it go meanwhile).
      const checked = this.cache.peek(id);
      if (checked) return checked;
    }
    const flight = `${create ? 'w' : 'r'}\u0000${id}`;
    let pending = this.pending.get(flight);
    if (!pending) {
      pending = this.load(id, workspaceId, userId, create).finally(() =>
        this.pending.delete(flight),
      );
      this.pending.set(flight, pending);
    }
    return pending;
  }

  private async load(
    id: string,
    workspaceId: string,
    userId: string,
    create: boolean,
  ): Promise<Entry | undefined> {
    let row = await this.rows.read(workspaceId, userId);
    if (!row && create) {
      const dataKey = randomBytes(KEY_BYTES);
      const inserted = await this.pool.query(
        `INSERT INTO data_keys (workspace_id, user_id, wrapped_key, key_version)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id, user_id) DO NOTHING
         RETURNING 1`,
        [workspaceId, userId, wrapKey(this.master, dataKey, workspaceId, userId), this.version],
      );
      if (inserted.rowCount === 1) {
        return this.remember(id, { state: 'live', key: dataKey });
      }
      // Another process (or store) inserted it first: theirs is the key.
      row = await this.rows.read(workspaceId, userId);
    }
    if (!row) return undefined;
    if (row.wrapped_key === null) return this.remember(id, { state: 'destroyed' });
    return this.remember(id, {
      state: 'live',
      key: this.unwrap(row.wrapped_key, row.key_version, workspaceId, userId),
    });
  }

  /**
   * The keys destroyed since the last check (by any process) are tombstoned in the cache: one query,
   * shared by every lookup that finds the cache past `ttlMs`. A missing row is no concern here: rows
   * are never deleted (a destroyed key keeps its tombstone row).
   */
  private checkDestroyed(): Promise<void> {
    this.checking ??= (async () => {
      const sentAt = this.now();
      const { rows } = await this.pool.query<{
        checked: Date;
        workspaces: string[] | null;
        users: string[] | null;
      }>(
        `SELECT now() AS checked, array_agg(workspace_id) AS workspaces, array_agg(user_id) AS users
           FROM data_keys
          WHERE wrapped_key IS NULL
            AND ($1::timestamptz IS NULL OR destroyed_at >= $1::timestamptz - interval '${DESTROYED_LOOKBACK}')`,
        [this.checkedSince ?? null],
      );
      const { checked, workspaces, users } = rows[0]!;
      (workspaces ?? []).forEach((workspaceId, i) => {
        const id = ownerKeyId(workspaceId, users![i]!);
        if (this.cache.peek(id)) this.cache.set(id, { state: 'destroyed' });
      });
      this.checkedSince = checked;
      this.checkedAt = sentAt;
    })().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** Caches the entry, unless the key was destroyed meanwhile (then the tombstone wins). */
  private remember(id: string, entry: Entry): Entry {
    const current = this.cache.peek(id);
    if (current?.state === 'destroyed') return current;
    this.cache.set(id, entry);
    return entry;
  }

  private unwrap(wrapped: Buffer, version: number, workspaceId: string, userId: string): Buffer {
    if (version !== this.version) {
      throw new WrongMasterKeyError(workspaceId, userId, `wrapped by master key #${version}`);
    }
    try {
      return unwrapKey(this.master, wrapped, workspaceId, userId);
    } catch (error) {
      throw new WrongMasterKeyError(workspaceId, userId, (error as Error).message);
    }
  }
}

async function rewrapInTransaction(
  client: PoolClient,
  keys: Readonly<{ oldMaster: Buffer; newMaster: Buffer; oldVersion: number; newVersion: number }>,
): Promise<RewrapResult> {
  // SHARE ROW EXCLUSIVE: waits for, and then blocks, inserts and updates (key creation, destruction);
  // plain reads go on.
  await client.query('LOCK TABLE data_keys IN SHARE ROW EXCLUSIVE MODE');
  const { rows: counts } = await client.query<{ destroyed: number }>(
    'SELECT count(*)::int AS destroyed FROM data_keys WHERE wrapped_key IS NULL',
  );
  let rewrapped = 0;
  let alreadyCurrent = 0;
  let after: readonly [string, string] = ['', ''];
  for (;;) {
    const { rows } = await client.query<
      KeyRow & { workspace_id: string; user_id: string; wrapped_key: Buffer }
    >(
      `SELECT workspace_id, user_id, wrapped_key, key_version FROM data_keys
        WHERE wrapped_key IS NOT NULL AND (workspace_id, user_id) > ($1, $2)
        ORDER BY workspace_id, user_id LIMIT ${REWRAP_PAGE}`,
      [...after],
    );
    const last = rows[rows.length - 1];
    if (!last) break;
    after = [last.workspace_id, last.user_id];
    const workspaces: string[] = [];
    const users: string[] = [];
    const wrapped: Buffer[] = [];
    for (const row of rows) {
      if (row.key_version === keys.newVersion) {
        alreadyCurrent += 1;
        continue;
      }
      if (row.key_version !== keys.oldVersion) {
        throw new WrongMasterKeyError(
          row.workspace_id,
          row.user_id,
          `wrapped by master key #${row.key_version}, neither the old one nor the new one`,
        );
      }
      let dataKey: Buffer;
      try {
        dataKey = unwrapKey(keys.oldMaster, row.wrapped_key, row.workspace_id, row.user_id);
      } catch (error) {
        throw new WrongMasterKeyError(row.workspace_id, row.user_id, (error as Error).message);
      }
      workspaces.push(row.workspace_id);
      users.push(row.user_id);
      wrapped.push(wrapKey(keys.newMaster, dataKey, row.workspace_id, row.user_id));
    }
    if (workspaces.length > 0) {
      await client.query(
        `UPDATE data_keys AS k SET wrapped_key = v.wrapped_key, key_version = $4
           FROM unnest($1::text[], $2::text[], $3::bytea[]) AS v(workspace_id, user_id, wrapped_key)
          WHERE k.workspace_id = v.workspace_id AND k.user_id = v.user_id`,
        [workspaces, users, wrapped, keys.newVersion],
      );
      rewrapped += workspaces.length;
    }
  }
  return { rewrapped, alreadyCurrent, destroyed: counts[0]?.destroyed ?? 0 };
}
