import type { Pool } from 'pg';
import { PROJECTIONS } from '@engram/projections';
import {
  ceilingRate,
  countCpu,
  cpuPerItem,
  lifetimeCpuSeconds,
  processCpuSeconds,
  type CpuCount,
} from '../support/cpu-usage';
import {
  runWorkers,
  stopWorkers,
  waitForBalancedLeases,
  workersOf,
  type MainStore,
} from '../support/main-store';
import { waitForCheckpoints } from '../support/checkpoints';
import type { BenchOptions } from '../support/options';
import { foldEveryReadModelInMemory } from '../support/fold-in-memory';
import { readAndDecodeAll } from '../support/read-and-decode';
import { measurement, type ScenarioResult } from '../support/result';
import { round } from '../support/stats';

/**
 * Projection rebuild: workers started on the seeded store (every projection at 0) replay the whole
 * log into every read model; events/s from their start until every checkpoint reaches the head. With
 * `--workers 1,2` the read models are emptied again and the rebuild measured once per worker count
 * (the workers share the partitions through their leases, balancing included).
 * Baseline: the same final rows inserted by raw batched INSERTs, one connection per table.
 * Best alternative, in the same run: one process folding every read model in memory with the same
 * projections and writing the final rows once (`foldEveryReadModelInMemory`): what a rebuild costs
 * with none of the machinery of a live read model (its ceiling, not its one-thread rate, bounds
 * what a rebuild here can do).
 * Each counts its CPU on the machine (workers, every PostgreSQL process, the bench process): with
 * every core busy at that CPU per event, the rebuild's ceiling here.
 */
export async function rebuildScenario(
  store: MainStore,
  options: Pick<BenchOptions, 'workers'>,
): Promise<ScenarioResult> {
  const rounds: {
    workers: number;
    seconds: number;
    balanceSeconds: number;
    held: number[];
    cpu: CpuCount;
  }[] = [];
  for (const [round, workers] of options.workers.entries()) {
    if (round > 0) {
      await stopWorkers(store);
      await resetReadModels(store.pool);
    }
    const cpu = countCpu();
    const running = processCpuSeconds(workersOf(store).map((worker) => worker.child.pid!));
    const started = performance.now();
    await runWorkers(store, workers);
    const [balance, seconds] = await Promise.all([
      waitForBalancedLeases(store, 30 * 60_000),
      waitForCheckpoints(store.pool, store.seededEvents, { pollMs: 50 }).then(
        () => (performance.now() - started) / 1000,
      ),
    ]);
    // The workers started during the round (their start-up is part of a rebuild) count whole.
    const pids = workersOf(store).map((worker) => worker.child.pid!);
    const counted = cpu();
    const workersCpu = lifetimeCpuSeconds(pids) - lifetimeCpuSeconds(pids, running);
    rounds.push({
      workers,
      seconds,
      balanceSeconds: balance.seconds,
      held: balance.held,
      cpu: {
        total: counted.total + workersCpu,
        parts: { ...counted.parts, workers: workersCpu },
      },
    });
  }
  const baseline = await insertReadModelRows(store.pool);
  const baselineCpuUsed = baseline.cpu;
  const decodeOnly = await readAndDecodeAll(store);
  const alternative = await foldEveryReadModelInMemory(store);
  assertSameRows(alternative.rows, baseline.rows);
  const events = store.seededEvents;
  return {
    measurements: [
      ...rounds.flatMap(({ workers, seconds, cpu }) => [
        measurement({
          scenario: '2 rebuild',
          metric: `events/s replayed into ${PROJECTIONS.length} read models${workersLabel(workers)}`,
          unit: 'ev/s',
          engram: events / seconds,
          baseline: events / baseline.seconds,
          target: '≥ 0.5× raw batched INSERTs',
          met: seconds <= 2 * baseline.seconds,
        }),
        measurement({
          scenario: '2 rebuild',
          metric: `CPU per event replayed (workers, PostgreSQL, bench)${workersLabel(workers)}, vs the raw INSERTs' per event`,
          unit: 'µs',
          engram: (1e6 * cpu.total) / events,
          baseline: (1e6 * baselineCpuUsed.total) / events,
        }),
        measurement({
          scenario: '2 rebuild',
          metric: `ceiling on this machine: events/s with every core busy at that CPU per event${workersLabel(workers)}`,
          unit: 'ev/s',
          engram: ceilingRate(events, cpu.total),
          baseline: events / baseline.seconds,
          target: 'what ≥ 0.5× raw asks of the rebuild on this machine',
          met: ceilingRate(events, cpu.total) >= (0.5 * events) / baseline.seconds,
        }),
      ]),
      measurement({
        scenario: '2 rebuild',
        metric:
          'best alternative: one process folding every read model in memory, each row written once',
        unit: 'ev/s',
        engram: alternative.events / alternative.seconds,
        baseline: events / baseline.seconds,
        target: '≥ 0.5× raw batched INSERTs',
        met: alternative.seconds <= 2 * baseline.seconds,
      }),
      measurement({
        scenario: '2 rebuild',
        metric:
          "CPU per event of that alternative (bench, PostgreSQL), vs the raw INSERTs' per event",
        unit: 'µs',
        engram: (1e6 * alternative.cpu.total) / alternative.events,
        baseline: (1e6 * baselineCpuUsed.total) / events,
      }),
      measurement({
        scenario: '2 rebuild',
        metric: 'ceiling of that alternative: events/s with every core busy at its CPU per event',
        unit: 'ev/s',
        engram: ceilingRate(alternative.events, alternative.cpu.total),
        baseline: events / baseline.seconds,
        target: 'what ≥ 0.5× raw asks of any rebuild on this machine',
        met:
          ceilingRate(alternative.events, alternative.cpu.total) >=
          (0.5 * events) / baseline.seconds,
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
      rounds: rounds.map((r) => ({
        workers: r.workers,
        engramSeconds: round(r.seconds),
        leasesBalancedAfterSeconds: round(r.balanceSeconds),
        leasesHeld: r.held,
        cpuMicrosecondsPerEvent: cpuPerItem(r.cpu, events),
      })),
      baselineSeconds: round(baseline.seconds),
      baselineCpuMicrosecondsPerEvent: cpuPerItem(baselineCpuUsed, events),
      readAndDecodeSeconds: round(decodeOnly.seconds),
      alternativeSeconds: round(alternative.seconds),
      alternativeCpuMicrosecondsPerEvent: cpuPerItem(alternative.cpu, alternative.events),
      rows: baseline.rows,
    },
  };
}

/** `, 2 workers` in a metric's name; nothing for one worker (the name the history knows). */
export function workersLabel(workers: number): string {
  return workers === 1 ? '' : `, ${workers} workers`;
}

/** The alternative wrote, table by table, the rows the rebuild had written (else its rate means nothing). */
function assertSameRows(written: Record<string, number>, rebuilt: Record<string, number>): void {
  for (const [table, rows] of Object.entries(written)) {
    if (rows !== rebuilt[table]) {
      throw new Error(
        `rebuild's best alternative: ${rows} rows of ${table}, the rebuild wrote ${rebuilt[table]}`,
      );
    }
  }
}

/** Every read model empty and every projection checkpoint at 0 again (the reactors' stay at the head). */
async function resetReadModels(pool: Pool): Promise<void> {
  for (const table of await readModelTables(pool)) await pool.query(`TRUNCATE ${table}`);
  await pool.query(
    `UPDATE projection_checkpoints SET position = 0 WHERE NOT starts_with(name, 'reactor:')`,
  );
}

const BATCH = 1000;

async function insertReadModelRows(
  pool: Pool,
): Promise<{ seconds: number; rows: Record<string, number>; cpu: CpuCount }> {
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
  const cpu = countCpu();
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
  const used = cpu();
  for (const table of tables) await pool.query(`DROP TABLE bench_copy_${table}`);
  return { seconds, rows, cpu: used };
}

async function readModelTables(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ table: string }>(
    `SELECT DISTINCT table_name AS table FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'workspace_id' AND table_name NOT LIKE 'bench_%' AND table_name <> 'data_keys'`,
  );
  return rows.map((row) => row.table);
}
