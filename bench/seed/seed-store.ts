import { loadConfig } from '@engram/config';
import { partitionNames } from '@engram/projections';
import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG, parseStreamName } from '@engram/domain';
import { EventCodec, type EventRecord } from '@engram/event-store';
import type { BenchDatabase } from '../support/bench-database';
import { BENCH_MASTER_KEY } from '../support/secrets';
import { globalOrder, type PlacedEvent } from './global-order';
import { UserHistory } from './user-history';

export const BENCH_WORKSPACE = 'bench';
export const HEAVY_USER = 'heavy';
const BATCH = 2000;
/** The reactors a seeded history counts as already handled (no LLM work is replayed). */
const REACTORS = [
  'memory_extraction',
  'memory_cap',
  'rolling_summary',
  'memory_supersession',
  'webhooks',
];

export type SeedPlan = Readonly<{
  /** Ordinary users and the events each one has. */
  users: number;
  eventsPerUser: number;
  /** One large user (exported by the export scenario), spread through the store; 0 for none. */
  heavyEvents: number;
}>;

export function userId(index: number): string {
  return `u${String(index).padStart(5, '0')}`;
}

/** Plans `total` events: `heavyEvents` for the large user and the rest shared by `users` users. */
export function planStore(total: number, users: number, heavyEvents: number): SeedPlan {
  return {
    users,
    eventsPerUser: Math.floor((total - heavyEvents) / Math.max(1, users)),
    heavyEvents,
  };
}

/**
 * Fills the event store directly, as the API would have: each event encoded by the real codec (personal
 * fields sealed with the owner's data key, wrapped by the bench's master key) and inserted in batches
 * of 2,000 rows with the streams and head the appends would have left. Encoding the next batch overlaps
 * the insert of the previous one, and the events table's indexes are built once at the end (as a bulk
 * load does) rather than updated row by row. The reactors' checkpoints are put at the head: the history counts as
 * processed, so starting a worker replays the projections only.
 */
export async function seedStore(database: BenchDatabase, plan: SeedPlan): Promise<number> {
  const pool = new Pool({ connectionString: database.ownerUrl, max: 3 });
  // Nothing erases keys while the bench seeds: no need to check cached keys again every 5 s.
  const keys = { cacheSize: plan.users + 1, ttlMs: 3_600_000 };
  const codec = new EventCodec(EVENT_CATALOG, new DataKeyCipher(pool, BENCH_MASTER_KEY, keys));
  const start = Date.now() - 2 * 24 * 3600 * 1000;
  const clock = (position: number) => new Date(start + position * 50).toISOString();
  const ordinary = Array.from(
    { length: plan.eventsPerUser > 0 ? plan.users : 0 },
    (_, index) => new UserHistory(BENCH_WORKSPACE, userId(index), plan.eventsPerUser, clock),
  );
  const spread =
    plan.heavyEvents > 0
      ? [new UserHistory(BENCH_WORKSPACE, HEAVY_USER, plan.heavyEvents, clock)]
      : [];
  const restoreIndexes = await dropEventIndexes(pool);
  try {
    let head = 0;
    let inserting: Promise<void> = Promise.resolve();
    let batch: PlacedEvent[] = [];
    const flush = async () => {
      const records = await Promise.all(batch.map((placed) => codec.encode(placed.envelope)));
      const placed = batch;
      batch = [];
      await inserting;
      inserting = insertEvents(pool, placed, records);
      // A failed insert is seen when awaited next; until then it must not count as unhandled.
      inserting.catch(() => undefined);
    };
    for (const event of globalOrder(ordinary, spread)) {
      batch.push(event);
      head = event.position;
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    await inserting;
    await restoreIndexes();
    await finishStore(pool, head);
    return head;
  } finally {
    await pool.end();
  }
}

async function insertEvents(
  pool: Pool,
  placed: readonly PlacedEvent[],
  records: readonly EventRecord[],
): Promise<void> {
  const owners = placed.map((event) => parseStreamName(event.streamId));
  await pool.query(
    `INSERT INTO events (global_position, stream_id, stream_revision, event_id, type, schema_version,
                         data, metadata, owner_workspace_id, owner_user_id, recorded_at)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::int[],
                          $7::jsonb[], $8::jsonb[], $9::text[], $10::text[], $11::timestamptz[])`,
    [
      placed.map((event) => event.position),
      placed.map((event) => event.streamId),
      placed.map((event) => event.revision),
      records.map((record) => record.eventId),
      records.map((record) => record.type),
      records.map((record) => record.schemaVersion),
      records.map((record) => JSON.stringify(record.data)),
      records.map((record) => JSON.stringify(record.metadata)),
      owners.map((owner) => owner?.workspaceId ?? null),
      owners.map((owner) => owner?.userId ?? null),
      placed.map((event) => event.envelope.metadata.occurredAt),
    ],
  );
}

/** Drops the events table's constraints and indexes; answers what recreates them as they were. */
async function dropEventIndexes(pool: Pool): Promise<() => Promise<void>> {
  const constraints = await pool.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = 'events'::regclass AND contype IN ('p', 'u')`,
  );
  const indexes = await pool.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename = 'events' AND indexname NOT IN (
        SELECT conname FROM pg_constraint WHERE conrelid = 'events'::regclass)`,
  );
  for (const { name } of constraints.rows) {
    await pool.query(`ALTER TABLE events DROP CONSTRAINT ${name}`);
  }
  for (const { name } of indexes.rows) await pool.query(`DROP INDEX ${name}`);
  const rebuild = async (sql: string) => {
    const client = await pool.connect();
    try {
      await client.query("SET maintenance_work_mem = '512MB'");
      await client.query(sql);
    } finally {
      client.release();
    }
  };
  return async () => {
    await Promise.all([
      ...constraints.rows.map(({ name, definition }) =>
        rebuild(`ALTER TABLE events ADD CONSTRAINT ${name} ${definition}`),
      ),
      ...indexes.rows.map(({ definition }) => rebuild(definition)),
    ]);
  };
}

async function finishStore(pool: Pool, head: number): Promise<void> {
  await pool.query(
    `INSERT INTO event_streams (stream_id, revision)
     SELECT stream_id, max(stream_revision) FROM events GROUP BY stream_id`,
  );
  await pool.query('UPDATE event_store_head SET position = $1', [head]);
  await pool.query(
    `INSERT INTO projection_checkpoints (name, position) SELECT unnest($1::text[]), $2
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`,
    // Every partition of each reactor (the count the worker will record, from ENGRAM_PARTITIONS).
    [REACTORS.flatMap((name) => partitionNames(`reactor:${name}`, loadConfig().partitions)), head],
  );
  await pool.query('VACUUM ANALYZE events');
  await pool.query('VACUUM ANALYZE event_streams');
}
