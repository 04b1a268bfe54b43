import { Agent, get } from 'node:http';
import { Pool } from 'pg';
import { BENCH_WORKSPACE, HEAVY_USER, planStore, seedStore } from '../seed/seed-store';
import { createBenchDatabase } from '../support/bench-database';
import { startEngram } from '../support/engram-process';
import { startApi, type MainStore } from '../support/main-store';
import type { BenchOptions } from '../support/options';
import { measurement, type ScenarioResult } from '../support/result';
import { round } from '../support/stats';

type ExportRun = Readonly<{ events: number; seconds: number }>;

/**
 * Export of the large user (options.exportEvents events) from the main store and from a store that
 * holds only that user: events/s of the NDJSON stream through HTTP, against the same rows read by
 * raw SQL; the two store sizes show whether the cost follows the user or the store.
 */
export async function exportScenario(
  store: MainStore,
  options: BenchOptions,
): Promise<ScenarioResult> {
  const api = await startApi(store);
  await exportOverHttp(api.url, store.tokens.auditor); // warm-up
  const large = await exportOverHttp(api.url, store.tokens.auditor);
  const raw = await readRaw(store.pool);
  const small = await exportFromStoreOfOnlyThatUser(options, store.tokens.auditor);
  const rate = (run: ExportRun) => run.events / run.seconds;
  const flatness = rate(large) / rate(small);
  return {
    measurements: [
      measurement({
        scenario: '5 export',
        metric: `events/s, ${options.exportEvents} of ${store.seededEvents} events`,
        unit: 'ev/s',
        engram: rate(large),
        baseline: rate(raw),
        target: '≥ 50,000 ev/s',
        met: rate(large) >= 50_000,
      }),
      measurement({
        scenario: '5 export',
        metric: `events/s, ${options.exportEvents} of ${options.exportEvents} events`,
        unit: 'ev/s',
        engram: rate(small),
        baseline: null,
        target: `flat: ${store.seededEvents} / ${options.exportEvents} store ≥ 0.8`,
        met: flatness >= 0.8,
      }),
    ],
    details: {
      largeStore: { ...large, seconds: round(large.seconds) },
      smallStore: { ...small, seconds: round(small.seconds) },
      raw: { ...raw, seconds: round(raw.seconds) },
      flatness: round(flatness),
    },
  };
}

async function exportFromStoreOfOnlyThatUser(
  options: BenchOptions,
  auditorToken: string,
): Promise<ExportRun> {
  const database = await createBenchDatabase(options.serverUrl, 'export');
  try {
    await seedStore(database, planStore(options.exportEvents, 0, options.exportEvents));
    const api = await startEngram('api', database);
    try {
      await exportOverHttp(api.url, auditorToken);
      return await exportOverHttp(api.url, auditorToken);
    } finally {
      await api.stop();
    }
  } finally {
    await database.drop();
  }
}

const agent = new Agent({ keepAlive: false });

/** Streams the export and counts its lines (the audit record at each end is not counted). */
function exportOverHttp(baseUrl: string, token: string): Promise<ExportRun> {
  const url = `${baseUrl}/v1/workspaces/${BENCH_WORKSPACE}/users/${HEAVY_USER}/export`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`export answered ${res.statusCode}`));
        res.resume();
        return;
      }
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) {
          lines += 1;
        }
      });
      res.on('end', () =>
        resolve({ events: lines, seconds: (performance.now() - started) / 1000 }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The same rows through pg, page by page on the owner index as the store reads them, not decoded. */
async function readRaw(pool: Pool): Promise<ExportRun> {
  const started = performance.now();
  let after = 0;
  let events = 0;
  for (;;) {
    const { rows } = await pool.query<{ global_position: string }>(
      `SELECT global_position, stream_id, stream_revision, event_id, type, schema_version, data,
              metadata, recorded_at
         FROM events WHERE owner_workspace_id = $1 AND owner_user_id = $2 AND global_position > $3
        ORDER BY global_position LIMIT 1000`,
      [BENCH_WORKSPACE, HEAVY_USER, after],
    );
    events += rows.length;
    if (rows.length < 1000) break;
    after = Number(rows.at(-1)!.global_position);
  }
  return { events, seconds: (performance.now() - started) / 1000 };
}
