import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG, userStream } from '@engram/domain';
import { EventCodec, type EventRecord } from '@engram/event-store';
import { MINIMAL_PREFIX, minimalAppTables, startMinimalApp } from '../baseline/start-minimal-app';
import { BENCH_WORKSPACE, userId } from '../seed/seed-store';
import { storeHead, waitForCheckpoints } from '../support/checkpoints';
import { ceilingRate, countCpu, cpuPerItem, type CpuCount } from '../support/cpu-usage';
import { engramPids, startApi, type MainStore } from '../support/main-store';
import { messageBody } from '../support/message-bodies';
import type { BenchOptions } from '../support/options';
import { measurement, type ScenarioResult } from '../support/result';
import { BENCH_MASTER_KEY } from '../support/secrets';
import { round } from '../support/stats';

/**
 * Messages appended through HTTP by 32 connections (autocannon) against the same rows inserted by
 * raw single-row INSERTs through pg at the same concurrency. Two bounds under the same load: Engram's
 * HTTP pipeline alone (the request refused with a 400 before any database work), and the same
 * refusal by a minimal NestJS app (what the framework itself costs); and the best real alternative,
 * the minimal app storing each message with one INSERT (what any NestJS service storing messages
 * reaches on this machine, the load generator sharing its cores like Engram's), and the same app
 * keeping the read models current as it stores (inline: what a service whose reads see each message
 * at once does, the best alternative to Engram's projections).
 */
export async function appendScenario(
  store: MainStore,
  options: BenchOptions,
): Promise<ScenarioResult> {
  const api = await startApi(store);
  const connections = options.appendConnections;
  let sent = 0;
  const load = (seconds: number, refused = false, url = api.url) =>
    autocannon({
      url,
      connections,
      duration: seconds,
      headers: {
        authorization: `Bearer ${store.tokens.agent}`,
        'content-type': 'application/json',
      },
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            sent += 1;
            const user = userId(sent % store.plan.users);
            return {
              ...request,
              path: `/v1/workspaces/${BENCH_WORKSPACE}/users/${user}/messages`,
              // Refused: the same request without its text, answered 400 before any database work.
              body: JSON.stringify(
                refused ? { ...messageBody(sent), text: undefined } : messageBody(sent),
              ),
            };
          },
        },
      ],
    });
  // What bounds the ratio: the same HTTP pipeline (auth, validation, logging, metrics) with no database,
  // and the same refusal by the minimal app. Measured first: after the appends the worker is still
  // projecting them, and would take its share of the CPU from the pipeline's window only.
  await load(Math.min(2, options.seconds), true); // warm-up
  const pipeline = await load(options.seconds, true);
  const minimal = await refusedByMinimalApp((url, seconds) => load(seconds, true, url), options);
  // The same app with what a production service adds (helmet, a log line, a latency histogram).
  const minimalProduction = await refusedByMinimalApp(
    (url, seconds) => load(seconds, true, url),
    options,
    { production: true },
  );
  // The same minimal app on Fastify, the server Engram runs on: what the framework itself costs there.
  const minimalFastify = await refusedByMinimalApp(
    (url, seconds) => load(seconds, true, url),
    options,
    { fastify: true },
  );
  // The best real alternative: the minimal app storing each message with one INSERT, before
  // Engram's appends (after them the worker would still be projecting, beside it).
  const { result: minimalStored, cpu: minimalStoredCpu } = await storedByMinimalApp(
    store,
    (url, seconds) => load(seconds, false, url),
    options,
  );
  // The best real alternative to a service that projects: the minimal app on Fastify keeping the
  // read models current as it stores each message (its rows in the same statement as the event).
  const { result: minimalProjected, cpu: minimalProjectedCpu } = await storedByMinimalApp(
    store,
    (url, seconds) => load(seconds, false, url),
    options,
    { readModels: true },
  );
  await load(Math.min(2, options.seconds)); // warm-up
  await caughtUp(store);
  // The CPU of Engram's appends, counted until the worker has projected them: a message costs what
  // the API, the worker (projections and process managers) and PostgreSQL spend on it, and the
  // load generator's share, as the minimal app's count includes it.
  const engramCpu = countCpu(engramPids(store));
  const engram = await load(options.seconds);
  if (engram['2xx'] === 0)
    throw new Error(`append: no request succeeded (${engram.non2xx} non-2xx)`);
  await caughtUp(store);
  const engramCpuUsed = engramCpu();
  const raw = await insertRaw(store, connections, options.seconds);
  const engramRate = engram['2xx'] / engram.duration;
  const pipelineRate = pipeline['4xx'] / pipeline.duration;
  const minimalRate = minimal['4xx'] / minimal.duration;
  const minimalProductionRate = minimalProduction['4xx'] / minimalProduction.duration;
  const minimalFastifyRate = minimalFastify['4xx'] / minimalFastify.duration;
  const minimalStoredRate = minimalStored['2xx'] / minimalStored.duration;
  const minimalProjectedRate = minimalProjected['2xx'] / minimalProjected.duration;
  const engramCeiling = ceilingRate(engram['2xx'], engramCpuUsed.total);
  const minimalStoredCeiling = ceilingRate(minimalStored['2xx'], minimalStoredCpu.total);
  const minimalProjectedCeiling = ceilingRate(minimalProjected['2xx'], minimalProjectedCpu.total);
  return {
    measurements: [
      measurement({
        scenario: '1 append',
        metric: `messages/s, ${connections} connections`,
        unit: 'msg/s',
        engram: engramRate,
        baseline: raw.rate,
        target: '≥ 0.5× raw single-row INSERTs (on the way to 1.0×)',
        met: engramRate >= 0.5 * raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `best alternative: the minimal app storing each message (one INSERT), ${connections} connections`,
        unit: 'msg/s',
        engram: minimalStoredRate,
        baseline: raw.rate,
        target: 'what ≥ 0.5× raw asks of any NestJS service',
        met: minimalStoredRate >= 0.5 * raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `best alternative keeping the read models current: the minimal app (Fastify) storing each message with its read-model rows in one statement, ${connections} connections`,
        unit: 'msg/s',
        engram: minimalProjectedRate,
        baseline: raw.rate,
        target: 'what ≥ 0.5× raw asks of a service whose reads see each message',
        met: minimalProjectedRate >= 0.5 * raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `ceiling on this machine of the minimal app storing each message with its read-model rows`,
        unit: 'msg/s',
        engram: minimalProjectedCeiling,
        baseline: raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `Engram vs the minimal app storing each message, ${connections} connections`,
        unit: 'msg/s',
        engram: engramRate,
        baseline: minimalStoredRate,
      }),
      measurement({
        scenario: '1 append',
        metric: `CPU per message stored and projected (API, worker, PostgreSQL, load generator), vs the minimal app storing it`,
        unit: 'µs',
        engram: (1e6 * engramCpuUsed.total) / engram['2xx'],
        baseline: (1e6 * minimalStoredCpu.total) / minimalStored['2xx'],
      }),
      measurement({
        scenario: '1 append',
        metric: `ceiling on this machine: messages/s with every core busy at Engram's CPU per message`,
        unit: 'msg/s',
        engram: engramCeiling,
        baseline: raw.rate,
        target: 'what ≥ 0.5× raw asks of Engram on this machine',
        met: engramCeiling >= 0.5 * raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `ceiling on this machine of the minimal app storing each message`,
        unit: 'msg/s',
        engram: minimalStoredCeiling,
        baseline: raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `bound: the HTTP pipeline alone (400 before the database), ${connections} connections`,
        unit: 'req/s',
        engram: pipelineRate,
        baseline: raw.rate,
      }),
      measurement({
        scenario: '1 append',
        metric: `the HTTP pipeline alone vs a minimal NestJS app (Express, same 400), ${connections} connections`,
        unit: 'req/s',
        engram: pipelineRate,
        baseline: minimalRate,
        target: '≥ 0.8× the minimal app',
        met: pipelineRate >= 0.8 * minimalRate,
      }),
      measurement({
        scenario: '1 append',
        metric: `the HTTP pipeline alone vs the minimal app with helmet, pino-http and a latency histogram (stock), ${connections} connections`,
        unit: 'req/s',
        engram: pipelineRate,
        baseline: minimalProductionRate,
      }),
      measurement({
        scenario: '1 append',
        metric: `the HTTP pipeline alone vs the minimal app on Fastify (same 400), ${connections} connections`,
        unit: 'req/s',
        engram: pipelineRate,
        baseline: minimalFastifyRate,
      }),
    ],
    details: {
      engram: {
        ok: engram['2xx'],
        non2xx: engram.non2xx,
        errors: engram.errors,
        seconds: engram.duration,
        latencyP50: engram.latency.p50,
        latencyP99: engram.latency.p99,
        cpuMicrosecondsPerMessage: cpuPerItem(engramCpuUsed, engram['2xx']),
      },
      pipeline: {
        refused: pipeline['4xx'],
        other: pipeline.requests.total - pipeline['4xx'],
        latencyP50: pipeline.latency.p50,
      },
      minimalAppStoring: {
        ok: minimalStored['2xx'],
        non2xx: minimalStored.non2xx,
        errors: minimalStored.errors,
        latencyP50: minimalStored.latency.p50,
        latencyP99: minimalStored.latency.p99,
        cpuMicrosecondsPerMessage: cpuPerItem(minimalStoredCpu, minimalStored['2xx']),
      },
      minimalAppStoringWithReadModels: {
        ok: minimalProjected['2xx'],
        non2xx: minimalProjected.non2xx,
        errors: minimalProjected.errors,
        latencyP50: minimalProjected.latency.p50,
        latencyP99: minimalProjected.latency.p99,
        cpuMicrosecondsPerMessage: cpuPerItem(minimalProjectedCpu, minimalProjected['2xx']),
      },
      minimalApp: {
        refused: minimal['4xx'],
        other: minimal.requests.total - minimal['4xx'],
        latencyP50: minimal.latency.p50,
      },
      minimalAppProduction: {
        refused: minimalProduction['4xx'],
        other: minimalProduction.requests.total - minimalProduction['4xx'],
        latencyP50: minimalProduction.latency.p50,
      },
      minimalAppFastify: {
        refused: minimalFastify['4xx'],
        other: minimalFastify.requests.total - minimalFastify['4xx'],
        latencyP50: minimalFastify.latency.p50,
      },
      raw: { inserted: raw.inserted, seconds: round(raw.seconds) },
      cores: availableParallelism(),
    },
  };
}

/** Every projection and process manager at the head of the log (the worker idle again). */
async function caughtUp(store: MainStore): Promise<void> {
  await waitForCheckpoints(store.pool, await storeHead(store.pool), {
    pollMs: 20,
    timeoutMs: 300_000,
  });
}

/**
 * The refused requests answered by the minimal NestJS app (bench/baseline), warmed up like the API;
 * its process is stopped before the raw INSERTs run.
 */
async function refusedByMinimalApp(
  load: (url: string, seconds: number) => Promise<autocannon.Result>,
  options: BenchOptions,
  variant: Readonly<{ production?: boolean; fastify?: boolean }> = {},
): Promise<autocannon.Result> {
  const app = await startMinimalApp(variant);
  try {
    await load(app.url, Math.min(2, options.seconds)); // warm-up
    const result = await load(app.url, options.seconds);
    if (result['4xx'] === 0) throw new Error(`append: the minimal app refused nothing`);
    return result;
  } finally {
    await app.stop();
  }
}

/**
 * The minimal app storing every message it accepts as one row of a table shaped like the events
 * table (made for the run, dropped after), warmed up like the API. With `readModels`, on Fastify,
 * it also writes each message's rows into copies of the read models.
 */
async function storedByMinimalApp(
  store: MainStore,
  load: (url: string, seconds: number) => Promise<autocannon.Result>,
  options: BenchOptions,
  variant: Readonly<{ readModels?: boolean }> = {},
): Promise<{ result: autocannon.Result; cpu: CpuCount }> {
  const dropTables = await minimalAppTables(store.pool, variant.readModels);
  const app = await startMinimalApp({
    writeUrl: store.database.ownerUrl,
    table: `${MINIMAL_PREFIX}events`,
    ...(variant.readModels ? { readModels: MINIMAL_PREFIX, fastify: true } : {}),
  });
  try {
    await load(app.url, Math.min(2, options.seconds)); // warm-up
    const cpu = countCpu({ app: app.child.pid });
    const result = await load(app.url, options.seconds);
    if (result['2xx'] === 0) {
      throw new Error(`append: the minimal app stored nothing (${result.non2xx} non-2xx)`);
    }
    return { result, cpu: cpu() };
  } finally {
    await app.stop();
    await dropTables();
  }
}

/** What the store writes for a message: the encoded (sealed) record, one row per INSERT. */
export async function insertRaw(store: MainStore, connections: number, seconds: number) {
  const pool = new Pool({ connectionString: store.database.ownerUrl, max: connections });
  try {
    const codec = new EventCodec(EVENT_CATALOG, new DataKeyCipher(pool, BENCH_MASTER_KEY));
    const samples: { record: EventRecord; streamId: string; user: string }[] = [];
    for (let index = 0; index < 64; index += 1) {
      const user = userId(index % store.plan.users);
      const body = messageBody(index);
      const record = await codec.encode({
        eventId: randomUUID(),
        event: { type: 'MessageRecorded', data: body },
        metadata: {
          workspaceId: BENCH_WORKSPACE,
          userId: user,
          traceId: randomUUID(),
          channel: body.channel,
          causationId: body.messageId,
          correlationId: randomUUID(),
          occurredAt: new Date().toISOString(),
        },
      });
      samples.push({
        record,
        user,
        streamId: userStream(BENCH_WORKSPACE, user, 'message', body.messageId),
      });
    }
    await pool.query('DROP TABLE IF EXISTS bench_raw_events');
    await pool.query('CREATE TABLE bench_raw_events (LIKE events INCLUDING ALL)');
    let position = 0;
    let inserted = 0;
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          position += 1;
          const sample = samples[position % samples.length]!;
          await pool.query(
            `INSERT INTO bench_raw_events (global_position, stream_id, stream_revision, event_id, type,
                schema_version, data, metadata, owner_workspace_id, owner_user_id)
             VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8, $9)`,
            [
              position,
              `${sample.streamId}.${position}`,
              randomUUID(),
              sample.record.type,
              sample.record.schemaVersion,
              JSON.stringify(sample.record.data),
              JSON.stringify(sample.record.metadata),
              BENCH_WORKSPACE,
              sample.user,
            ],
          );
          inserted += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    await pool.query('DROP TABLE bench_raw_events');
    return { inserted, seconds: elapsed, rate: inserted / elapsed };
  } finally {
    await pool.end();
  }
}
