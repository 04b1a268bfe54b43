import { Pool } from 'pg';
import { BENCH_WORKSPACE, userId } from '../seed/seed-store';
import { startMinimalApp } from '../baseline/start-minimal-app';
import { runAtFixedRate, type FixedRateRun } from '../support/fixed-rate';
import { call } from '../support/http-client';
import { startApi, type MainStore } from '../support/main-store';
import type { BenchOptions } from '../support/options';
import { measurement, type ScenarioResult } from '../support/result';
import { percentile, round } from '../support/stats';
import { readContextRaw } from './context-sql';

/**
 * GET …/context for random users of the seeded store at a fixed rate: p50/p99 latency, against the
 * same reads as raw SQL through pg at the same rate, and against the best real alternative: a minimal
 * NestJS app running Engram's statement for the same users at the same rate.
 */
export async function contextScenario(
  store: MainStore,
  options: BenchOptions,
): Promise<ScenarioResult> {
  const api = await startApi(store);
  const users = store.plan.users;
  const pick = () => userId(Math.floor(Math.random() * users));
  const url = (user: string) =>
    `${api.url}/v1/workspaces/${BENCH_WORKSPACE}/users/${user}/context?sessionId=s1`;
  // Warm-up: connections, JIT, caches.
  await runAtFixedRate(options.contextRate, Math.min(2, options.seconds), async () => {
    await call(url(pick()), { token: store.tokens.agent });
  });
  const engram = await runAtFixedRate(options.contextRate, options.seconds, async () => {
    await call(url(pick()), { token: store.tokens.agent });
  });
  const minimal = await readByMinimalApp(store, options, pick);
  const pool = new Pool({ connectionString: store.database.appUrl, max: 10 });
  let raw: FixedRateRun;
  try {
    raw = await runAtFixedRate(options.contextRate, options.seconds, () =>
      readContextRaw(pool, BENCH_WORKSPACE, pick(), 's1'),
    );
  } finally {
    await pool.end();
  }
  const p99 = percentile(engram.latencies, 99);
  const rawP99 = percentile(raw.latencies, 99);
  return {
    measurements: [
      measurement({
        scenario: '3 context',
        metric: `p50 at ${options.contextRate}/s, ${users} users`,
        unit: 'ms',
        engram: percentile(engram.latencies, 50),
        baseline: percentile(raw.latencies, 50),
      }),
      measurement({
        scenario: '3 context',
        metric: `p99 at ${options.contextRate}/s, ${users} users`,
        unit: 'ms',
        engram: p99,
        baseline: rawP99,
        target: '≤ 10 ms and ≤ 2× raw SQL',
        met: p99 <= 10 && p99 <= 2 * rawP99,
      }),
      measurement({
        scenario: '3 context',
        metric: `best alternative: a minimal NestJS app running Engram's statement, p50 at ${options.contextRate}/s`,
        unit: 'ms',
        engram: percentile(minimal.latencies, 50),
        baseline: percentile(raw.latencies, 50),
      }),
      measurement({
        scenario: '3 context',
        metric: `best alternative: a minimal NestJS app running Engram's statement, p99 at ${options.contextRate}/s`,
        unit: 'ms',
        engram: percentile(minimal.latencies, 99),
        baseline: rawP99,
        target: 'what ≤ 10 ms and ≤ 2× raw asks of any NestJS service',
        met:
          percentile(minimal.latencies, 99) <= 10 &&
          percentile(minimal.latencies, 99) <= 2 * rawP99,
      }),
    ],
    details: {
      engram: summary(engram),
      minimalApp: summary(minimal),
      raw: summary(raw),
    },
  };
}

/**
 * The same users' contexts from the minimal NestJS app (bench/baseline): the bearer check and
 * Engram's one statement under the caller's identity, answered as JSON rows; no waiting for read
 * models, no assembly, no rendering, no usage recorded. What any NestJS service doing these reads costs.
 */
async function readByMinimalApp(
  store: MainStore,
  options: BenchOptions,
  pick: () => string,
): Promise<FixedRateRun> {
  const app = await startMinimalApp({ readUrl: store.database.appUrl });
  const url = (user: string) =>
    `${app.url}/v1/workspaces/${BENCH_WORKSPACE}/users/${user}/context?sessionId=s1`;
  try {
    await runAtFixedRate(options.contextRate, Math.min(2, options.seconds), async () => {
      await call(url(pick()), { token: store.tokens.agent });
    });
    return await runAtFixedRate(options.contextRate, options.seconds, async () => {
      await call(url(pick()), { token: store.tokens.agent });
    });
  } finally {
    await app.stop();
  }
}

export function summary(run: FixedRateRun) {
  return {
    calls: run.latencies.length,
    errors: run.errors,
    ...(run.firstError ? { firstError: run.firstError } : {}),
    skipped: run.skipped,
    p50: round(percentile(run.latencies, 50)),
    p90: round(percentile(run.latencies, 90)),
    p99: round(percentile(run.latencies, 99)),
    max: round(Math.max(...run.latencies)),
  };
}
