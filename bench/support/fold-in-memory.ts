import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, PostgresEventStore } from '@engram/event-store';
import {
  PROJECTIONS,
  READ_MODEL_ENTITIES,
  rowKeyString,
  typesFedTo,
  type AnyProjection,
  type OwnedRow,
} from '@engram/projections';
import { DataSource } from 'typeorm';
import { applyBatch } from '../../projections/runner/apply-batch';
import type { RowTable } from '../../projections/runner/row-table';
import { sqlRowTable } from '../../projections/runner/row-table';
import { countCpu, type CpuCount } from './cpu-usage';
import type { MainStore } from './main-store';
import { BENCH_MASTER_KEY } from './secrets';

const PAGE = 2000;
const WRITE_BATCH = 1000;

export type InMemoryFold = Readonly<{
  seconds: number;
  events: number;
  cpu: CpuCount;
  /** Rows written per read-model table. */
  rows: Record<string, number>;
}>;

/**
 * The best alternative to a rebuild by the worker: one Node process reads the whole log once (pages
 * of 2,000, each decoded together), folds every read model in memory with the same pure projections
 * (every row kept in a Map: no partitions, no checkpoints, no row reads, no row written twice), and
 * writes the final rows once at the end, each table through its own connection in batches of 1,000
 * (as the raw INSERTs do). It is a rebuild stripped of all that keeps a live read model correct
 * while it runs (a checkpoint with each batch, leases, parking, bounded memory). It reads, folds and
 * writes one after the other, so a rebuild that overlaps them can beat its rate; its CPU per event,
 * and the ceiling that gives with every core busy, are the bound that counts.
 *
 * The read models are emptied before the clock starts and written again by it: they end holding
 * the rows they held (the caller compares the counts), and the workers, idle at the head, hold the
 * same rows in their caches.
 */
export async function foldEveryReadModelInMemory(store: MainStore): Promise<InMemoryFold> {
  const keys = new Pool({ connectionString: store.database.ownerUrl, max: 2 });
  // An idle connection dropped by the server must not crash the bench (pg's pools rethrow it).
  keys.on('error', () => undefined);
  const log = new PostgresEventStore({ connectionString: store.database.ownerUrl });
  const codec = new EventCodec(EVENT_CATALOG, new DataKeyCipher(keys, BENCH_MASTER_KEY));
  const dataSource = new DataSource({
    type: 'postgres',
    url: store.database.ownerUrl,
    entities: READ_MODEL_ENTITIES,
    extra: { max: PROJECTIONS.length },
  });
  await dataSource.initialize();
  try {
    const tables = PROJECTIONS.map((projection) => dataSource.getMetadata(projection.entity));
    await dataSource.query(`TRUNCATE ${tables.map((table) => `"${table.tableName}"`).join(', ')}`);
    const cpu = countCpu();
    const started = performance.now();
    const models = PROJECTIONS.map((projection) => ({
      projection,
      fed: typesFedTo(projection),
      table: memoryTable(projection),
    }));
    let after = 0n;
    let events = 0;
    for (;;) {
      const page = await log.readAll({ after, maxCount: PAGE });
      if (page.length === 0) break;
      const decoded = await codec.decodeAll(page);
      for (const { projection, fed, table } of models) {
        const handled = decoded.filter((event) => fed.has(event.event.type));
        if (handled.length > 0) await applyBatch(table, projection, handled);
      }
      events += page.length;
      after = page[page.length - 1]!.globalPosition;
    }
    await Promise.all(
      models.map(({ projection, table }) => writeRows(dataSource, projection, table.rows())),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = cpu();
    return {
      seconds,
      events,
      cpu: used,
      rows: Object.fromEntries(
        models.map(({ table }, index) => [tables[index]!.tableName, table.rows().length]),
      ),
    };
  } finally {
    await dataSource.destroy();
    await log.close();
    await keys.end();
  }
}

/** One read model's rows in a Map by key: what `applyBatch` reads and writes, in memory. */
function memoryTable<Row extends OwnedRow>(
  projection: AnyProjection,
): RowTable<Row> & { rows(): Row[] } {
  const rows = new Map<string, Row>();
  return {
    rows: () => [...rows.values()],
    findByKeys: (keys) =>
      Promise.resolve(
        keys.flatMap((key) => {
          const row = rows.get(rowKeyString(projection, key));
          return row ? [row] : [];
        }),
      ),
    deleteWhere: (criteria) => {
      const entries = Object.entries(criteria);
      for (const [key, row] of rows) {
        if (entries.every(([column, value]) => row[column] === value)) rows.delete(key);
      }
      return Promise.resolve();
    },
    upsert: (upserts) => {
      for (const row of upserts) rows.set(rowKeyString(projection, row), row);
      return Promise.resolve();
    },
  };
}

/** The rows of one table in one transaction, batches of `WRITE_BATCH` rows per statement. */
async function writeRows(
  dataSource: DataSource,
  projection: AnyProjection,
  rows: readonly OwnedRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await dataSource.transaction(async (manager) => {
    const table = sqlRowTable(manager, projection);
    for (let offset = 0; offset < rows.length; offset += WRITE_BATCH) {
      await table.upsert(rows.slice(offset, offset + WRITE_BATCH));
    }
  });
}
