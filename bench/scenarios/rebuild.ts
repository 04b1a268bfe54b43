import type { Pool } from 'pg';
import { PROJECTIONS } from '@engram/projections';
import { startEngram } from '../support/engram-process';
import type { MainStore } from '../support/main-store';
import { waitForCheckpoints } from '../support/checkpoints';
import { readAndDecodeAll } from '../support/read-and-decode';
import { measurement, type ScenarioResult } from '../support/result';
import { round } from '../support/stats';

/**
 * Projection rebuild: a worker started on the seeded store (every projection at 0) replays the whole
 * log into every read model; events/s from its start until every checkpoint reaches the head.
 * Baseline: the same final rows inserted by raw batched INSERTs, one connection per table.
 */
export async function rebuildScenario(store: MainStore): Promise<ScenarioResult> {
  const started = performance.now();
  store.worker = await startEngram('worker', store.database);
  await waitForCheckpoints(store.pool, store.seededEvents, { pollMs: 50 });
  const engramSeconds = (performance.now() - started) / 1000;
  const baseline = await insertReadModelRows(store.pool);
  const decodeOnly = await readAndDecodeAll(store);
  const events = store.seededEvents;
  return {
    measurements: [
      measurement({
        scenario: '2 rebuild',
        metric: `events/s replayed into ${PROJECTIONS.length} read models`,
        unit: 'ev/s',
        engram: events / engramSeconds,
        baseline: events / baseline.seconds,
        target: '≥ 0.5× raw batched INSERTs',
        met: engramSeconds <= 2 * baseline.seconds,
      }),
      measurement({
        scenario: '2 rebuild',
        metric: 'bound: one Node thread reading and decoding the log, no projection',
        unit: 'ev/s',
        engram: decodeOnly.events / decodeOnly.seconds,
        baseline: events / baseline.seconds,
      }),
    ],
    details: {
      events,
      engramSeconds: round(engramSeconds),
      baselineSeconds: round(baseline.seconds),
      readAndDecodeSeconds: round(decodeOnly.seconds),
      rows: baseline.rows,
    },
  };
}

const BATCH = 1000;

async function insertReadModelRows(
  pool: Pool,
): Promise<{ seconds: number; rows: Record<string, number> }> {
  const tables = await readModelTables(pool);
  const rows: Record<string, number> = {};
  const snapshots = new Map<string, string[]>();
  for (const table of tables) {
    await pool.query(`DROP TABLE IF EXISTS bench_copy_${table}`);
    await pool.query(`CREATE TABLE bench_copy_${table} (LIKE ${table} INCLUDING ALL)`);
    const result = await pool.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM ${table} t`,
    );
    snapshots.set(
      table,
      result.rows.map((r) => r.row),
    );
    rows[table] = result.rows.length;
  }
  const started = performance.now();
  await Promise.all(
    tables.map(async (table) => {
      const lines = snapshots.get(table)!;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (let offset = 0; offset < lines.length; offset += BATCH) {
          await client.query(
            `INSERT INTO bench_copy_${table}
             SELECT * FROM json_populate_recordset(NULL::bench_copy_${table}, $1::json)`,
            [`[${lines.slice(offset, offset + BATCH).join(',')}]`],
          );
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const table of tables) await pool.query(`DROP TABLE bench_copy_${table}`);
  return { seconds, rows };
}

async function readModelTables(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ table: string }>(
    `SELECT DISTINCT table_name AS table FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'workspace_id' AND table_name NOT LIKE 'bench_%' AND table_name <> 'data_keys'`,
  );
  return rows.map((row) => row.table);
}
