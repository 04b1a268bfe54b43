import { createDecipheriv } from 'node:crypto';
import { Agent, get } from 'node:http';
import { availableParallelism } from 'node:os';
import { Pool } from 'pg';
import { DataKeyCipher, SEALED_FIELD, type SealedEnvelope } from '@engram/crypto';
import { BENCH_WORKSPACE, HEAVY_USER, planStore, seedStore } from '../seed/seed-store';
import { createBenchDatabase } from '../support/bench-database';
import { ceilingRate, countCpu } from '../support/cpu-usage';
import { startEngram } from '../support/engram-process';
import { startApi, type MainStore } from '../support/main-store';
import type { BenchOptions } from '../support/options';
import { measurement, type ScenarioResult } from '../support/result';
import { BENCH_MASTER_KEY } from '../support/secrets';
import { round } from '../support/stats';

/** Events read or exported, in how many seconds. */
type Timed = Readonly<{ events: number; seconds: number }>;

type ExportRun = Timed &
  Readonly<{
    /**
     * CPU seconds the run took on this machine: the bench process (the reader, or the export's client),
     * the API serving it if any, and every process of the PostgreSQL server.
     */
    cpuSeconds: number;
  }>;

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
  const large = await afterWarmUp(() =>
    withCpu(() => exportOverHttp(api.url, store.tokens.auditor), api.child.pid),
  );
  const raw = await afterWarmUp(() => withCpu(() => readRaw(store.pool)));
  const opened = await afterWarmUp(() => withCpu(() => readRawAndOpen(store.pool)));
  const rendered = await afterWarmUp(() => withCpu(() => readRawAndOpen(store.pool, true)));
  const small = await exportFromStoreOfOnlyThatUser(options, store.tokens.auditor);
  const rate = (run: ExportRun) => run.events / run.seconds;
  const ceiling = (run: ExportRun) => ceilingRate(run.events, run.cpuSeconds);
  const flatness = rate(large) / rate(small);
  return {
    measurements: [
      measurement({
        scenario: '5 export',
        metric: `events/s, ${options.exportEvents} of ${store.seededEvents} events`,
        unit: 'ev/s',
        engram: rate(large),
        baseline: rate(raw),
        target: '≥ 50,000 ev/s or ≥ 0.8× raw',
        met: rate(large) >= 50_000 || rate(large) >= 0.8 * rate(raw),
      }),
      measurement({
        scenario: '5 export',
        metric: `best alternative: the same rows read raw and their sealed fields opened, one thread`,
        unit: 'ev/s',
        engram: rate(opened),
        baseline: rate(raw),
        target: 'what ≥ 0.8× raw asks of any store that seals personal fields',
        met: rate(opened) >= 0.8 * rate(raw),
      }),
      measurement({
        scenario: '5 export',
        metric: `best alternative with the export's output: read raw, opened, each event rendered as an NDJSON line, one thread`,
        unit: 'ev/s',
        engram: rate(rendered),
        baseline: rate(raw),
        target: 'what ≥ 0.8× raw asks of any export of decrypted lines',
        met: rate(rendered) >= 0.8 * rate(raw),
      }),
      measurement({
        scenario: '5 export',
        metric: `ceiling on this machine of that alternative: its events/s with every core busy at its CPU per event`,
        unit: 'ev/s',
        engram: ceiling(rendered),
        baseline: rate(raw),
        target: 'what ≥ 50,000 ev/s or ≥ 0.8× raw asks of any design on this machine',
        met: ceiling(rendered) >= 50_000 || ceiling(rendered) >= 0.8 * rate(raw),
      }),
      measurement({
        scenario: '5 export',
        metric: `ceiling on this machine of Engram's export: its events/s with every core busy at its CPU per event`,
        unit: 'ev/s',
        engram: ceiling(large),
        baseline: rate(raw),
        target: '≥ 50,000 ev/s or ≥ 0.8× raw',
        met: ceiling(large) >= 50_000 || ceiling(large) >= 0.8 * rate(raw),
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
      largeStore: rounded(large),
      smallStore: rounded(small),
      raw: rounded(raw),
      rawOpened: rounded(opened),
      rawOpenedRendered: rounded(rendered),
      cores: availableParallelism(),
      flatness: round(flatness),
    },
  };
}

/**
 * Every measure runs once untimed first, the export and its baselines alike: the first pass over the
 * rows in a process runs pg's row parsing and the rendering before V8 has optimized them, and reads
 * pages the database may not have cached yet (measured: the raw read 23,000–35,000 events/s on its
 * first pass, 45,000–80,000 on the next ones; the export warmed up but not the raw read made the
 * ratio 0.74× where it is ~0.3×).
 */
async function afterWarmUp(measure: () => Promise<ExportRun>): Promise<ExportRun> {
  await measure();
  return measure();
}

function rounded(run: ExportRun) {
  return {
    events: run.events,
    seconds: round(run.seconds),
    cpuMicrosecondsPerEvent: round((1e6 * run.cpuSeconds) / run.events),
  };
}

/** The run, with the CPU it took: this process's, the API's (`apiPid`) and the database server's. */
async function withCpu(run: () => Promise<Timed>, apiPid?: number): Promise<ExportRun> {
  const cpu = countCpu({ api: apiPid });
  const result = await run();
  return { ...result, cpuSeconds: cpu().total };
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
      return await afterWarmUp(() =>
        withCpu(() => exportOverHttp(api.url, auditorToken), api.child.pid),
      );
    } finally {
      await api.stop();
    }
  } finally {
    await database.drop();
  }
}

const agent = new Agent({ keepAlive: false });

/** Streams the export and counts its lines (the audit record at each end is not counted). */
function exportOverHttp(baseUrl: string, token: string): Promise<Timed> {
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

type RawRow = Readonly<{
  global_position: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}>;

/**
 * The floor of any export that keeps personal fields sealed at rest: the raw read, plus, per event,
 * the one AES-256-GCM open of its `_sealed` envelope (base64, decipher with the event id as AAD,
 * JSON.parse) with the owner's data key fetched once. No codec, no upcasting, no HTTP; with `render`,
 * each event is also written as Engram's export writes it: one NDJSON line (the same fields), a
 * page's lines encoded to UTF-8 once.
 */
async function readRawAndOpen(pool: Pool, render = false): Promise<Timed> {
  const keys = new DataKeyCipher(pool, BENCH_MASTER_KEY).keys;
  const key = await keys.keyForReading(BENCH_WORKSPACE, HEAVY_USER);
  if (!key) throw new Error('export: the heavy user has no data key');
  let opened = 0;
  const lines: string[] = [];
  let bytes = 0;
  const run = await readRaw(pool, (row) => {
    const envelope = row.data[SEALED_FIELD] as SealedEnvelope | undefined;
    if (!envelope) return;
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'), {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(row.event_id, 'utf8'));
    decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
    const ct = Buffer.from(envelope.ct, 'base64');
    const personal = JSON.parse(
      Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8'),
    ) as Record<string, unknown>;
    opened += 1;
    if (!render) return;
    const data: Record<string, unknown> = {};
    for (const field of Object.keys(row.data)) {
      if (field !== SEALED_FIELD) data[field] = row.data[field];
    }
    lines.push(JSON.stringify(exportLine(row, Object.assign(data, personal))), '\n');
    if (lines.length >= 2000) bytes += Buffer.from(lines.splice(0).join(''), 'utf8').length;
  });
  if (opened === 0) throw new Error('export: no sealed event was opened');
  if (render && bytes + Buffer.from(lines.join(''), 'utf8').length === 0) {
    throw new Error('export: no line was rendered');
  }
  return run;
}

/** The fields of an export line (`ExportLine` of libs/gdpr), from a raw row. */
function exportLine(row: RawRow, data: Record<string, unknown>) {
  const metadata = row.metadata;
  return {
    position: Number(row.global_position),
    eventId: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    type: row.type,
    schemaVersion: row.schema_version,
    occurredAt: metadata.occurredAt,
    recordedAt: row.recorded_at.toISOString(),
    metadata,
    data,
    erased: false,
  };
}

/**
 * The same rows through pg, page by page on the owner index as the store reads them, not decoded;
 * the next page is asked for before `each` runs over the current one, so work on the rows overlaps
 * the database's.
 */
async function readRaw(pool: Pool, each: (row: RawRow) => void = () => undefined): Promise<Timed> {
  const page = (after: string | number) =>
    pool.query<RawRow>(
      `SELECT global_position, stream_id, stream_revision, event_id, type, schema_version, data,
              metadata, recorded_at
         FROM events WHERE owner_workspace_id = $1 AND owner_user_id = $2 AND global_position > $3
        ORDER BY global_position LIMIT 1000`,
      [BENCH_WORKSPACE, HEAVY_USER, after],
    );
  const started = performance.now();
  let events = 0;
  for (let next = page(0); ;) {
    const { rows } = await next;
    events += rows.length;
    const full = rows.length === 1000;
    if (full) next = page(rows.at(-1)!.global_position);
    for (const row of rows) each(row);
    if (!full) break;
  }
  return { events, seconds: (performance.now() - started) / 1000 };
}
