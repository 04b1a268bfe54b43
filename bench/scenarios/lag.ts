import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';
import {
  CONTEXT_READ_MODELS,
  allCheckpointsOf,
  checkpointsFor,
  recordedPartitionCount,
} from '@engram/projections';
import { storeHead, waitForCheckpoints } from '../support/checkpoints';
import { runAtFixedRate, type FixedRateRun } from '../support/fixed-rate';
import { countCpu, cpuPerItem, type CpuCount } from '../support/cpu-usage';
import {
  runWorkers,
  runWorkersByRole,
  startApi,
  waitForBalancedLeases,
  engramPids,
  workersOf,
  type MainStore,
} from '../support/main-store';
import { loggedSince } from '../support/logged-problems';
import { messageBody } from '../support/message-bodies';
import { messageWriter, type MessageWriter } from '../support/message-writer';
import type { BenchOptions } from '../support/options';
import { measurement, type ScenarioResult } from '../support/result';
import { percentile, round } from '../support/stats';
import { workersLabel } from './rebuild';

/**
 * Projection lag under a sustained append rate: for each message, from the moment its append is
 * acknowledged (its position) until every read model of the context has applied that position for
 * its owner (see `measureLags`; checkpoints polled every 2 ms). Messages are recorded by the API's own write path (command, codec,
 * group commit) in this process, not through HTTP: on this 2-core machine the HTTP pipeline alone
 * stays below 1,000 requests/s (scenario 1 measures it), and the lag of the worker is what is measured. Baseline: a raw INSERT and NOTIFY, until another connection hears the notification,
 * the floor any "visible elsewhere" path on PostgreSQL pays. Measured once more with one worker
 * just restarted (a deploy): at the head at once, its caches cold; then twice (just started, then
 * warm) with the projections and the process managers in workers of their own, the process
 * managers' at a lower priority (`ENGRAM_WORKER_ROLE` and `nice`, as a deployment may run them).
 */
export async function lagScenario(
  store: MainStore,
  options: BenchOptions,
): Promise<ScenarioResult> {
  await startApi(store); // the API runs, as in production, though the messages do not go through it
  // One writer for every round, its key cache warm like an API's that has been up: the restarted
  // round restarts the worker, not the API.
  const writer = messageWriter(store);
  await writer.warm();
  const rounds: Round[] = [];
  const measureWith = async (workers: number, restarted: boolean, byRole = false, last = false) => {
    if (!byRole) await runWorkers(store, workers);
    else if (restarted) await runWorkersByRole(store, PROCESS_MANAGERS_NICE);
    await waitForBalancedLeases(store, 10 * 60_000);
    await waitForCheckpoints(store.pool, await storeHead(store.pool));
    rounds.push({ workers, restarted, byRole, ...(await measureLags(store, options, writer)) });
    // With the round's own workers, before the next round changes them (a restarted worker must
    // start cold): the next round's load should not share the cores with this one's backlog.
    if (!last) await settleProcessManagers(store.pool);
  };
  try {
    for (const workers of options.workers) await measureWith(workers, false);
    // A deploy restarts the worker: it is at the head at once, but its caches (data keys, rows) are
    // cold, and at 10,000 users most appends are then of an owner it has not met yet.
    await runWorkers(store, 0);
    await measureWith(1, true);
    // The deployment that gives the projections the cores first (ENGRAM_WORKER_ROLE): just started,
    // then warm (its caches filled by the first round's messages, as the steady round's by the seed).
    await measureWith(2, true, true);
    await measureWith(2, false, true, true);
  } finally {
    await writer.close();
  }
  const raw = await notifyLag(store, options);
  return {
    measurements: rounds.flatMap((each) => roundMeasurements(each, raw, options.lagRate)),
    details: {
      rounds: rounds.map(
        ({
          lags,
          everywhere,
          run,
          cpu,
          allWork,
          processManagers,
          workersLogged,
          ...deployment
        }) => ({
          ...deployment,
          appended: run.latencies.length,
          appendErrors: run.errors,
          ...(run.firstError ? { firstError: run.firstError } : {}),
          skipped: run.skipped,
          appendP99: round(percentile(run.latencies, 99)),
          lagMax: round(Math.max(...lags)),
          lagEverywhereP50: round(percentile(everywhere, 50)),
          lagEverywhereMax: round(Math.max(...everywhere)),
          // Where the two cores went while the messages were appended and projected: the bench (the
          // appender and the checkpoint poller), PostgreSQL, the API (idle here) and each worker.
          cpuMicrosecondsPerMessage: cpuPerItem(cpu, Math.max(1, run.latencies.length)),
          cpuMicrosecondsPerMessageAllWork: cpuPerItem(allWork, Math.max(1, run.latencies.length)),
          processManagers,
          workersLogged,
        }),
      ),
    },
  };
}

/** A round's workers: how many, just restarted or not, and whether each runs one role. */
type Round = Lags & Readonly<{ workers: number; restarted: boolean; byRole: boolean }>;

function roundMeasurements(
  { workers, restarted, byRole, lags, everywhere, run, allWork, processManagers }: Round,
  raw: readonly number[],
  rate: number,
) {
  const p99 = percentile(lags, 99);
  const label =
    (byRole
      ? `, a worker per role (the process managers' at nice ${PROCESS_MANAGERS_NICE})`
      : workersLabel(workers)) +
    (restarted ? `, ${byRole ? 'workers' : 'worker'} just restarted` : '');
  const at = `at ${rate}/s${label}`;
  return [
    measurement({
      scenario: '4 lag',
      metric: `p50 append→visible to its owner ${at}`,
      unit: 'ms',
      engram: percentile(lags, 50),
      baseline: percentile(raw, 50),
    }),
    measurement({
      scenario: '4 lag',
      metric: `p99 append→visible to its owner ${at}`,
      unit: 'ms',
      engram: p99,
      baseline: percentile(raw, 99),
      target: '≤ 100 ms',
      met: p99 <= 100,
    }),
    // Rounds 1 to 17 reported only this one, as "append→visible".
    measurement({
      scenario: '4 lag',
      metric: `p99 append→past in every partition ${at}`,
      unit: 'ms',
      engram: percentile(everywhere, 99),
      baseline: percentile(raw, 99),
    }),
    'caughtUpMs' in processManagers
      ? measurement({
          scenario: '4 lag',
          metric: `process managers past the last message, after its append${label}`,
          unit: 'ms',
          engram: processManagers.caughtUpMs,
          baseline: null,
        })
      : measurement({
          scenario: '4 lag',
          metric: `process managers' backlog ${PROCESS_MANAGERS_WAIT_MS / 1000} s after the last append${label}`,
          unit: 'events',
          engram: processManagers.behindAfterWait,
          baseline: null,
        }),
    // What the rate asks of the machine once every message's work is done: past its cores, the
    // process managers' backlog grows for as long as the load lasts, whatever the scheduling.
    measurement({
      scenario: '4 lag',
      metric: `cores the work of ${rate} messages/s takes, every process manager past them${label}${
        'caughtUpMs' in processManagers ? '' : ' (at least: not caught up)'
      }`,
      unit: 'cores',
      engram: (allWork.total * rate) / Math.max(1, run.latencies.length),
      baseline: null,
    }),
  ];
}

type Lags = Readonly<{
  /** Each message's lag until the partitions holding its owner applied it. */
  lags: number[];
  /** Each message's lag until every partition's checkpoint had passed it. */
  everywhere: number[];
  run: FixedRateRun;
  /** The CPU of the machine's processes while the messages were appended. */
  cpu: CpuCount;
  /**
   * The same, counted on until the process managers had passed the last message (or stopped being
   * waited for): the whole work of the round's messages, which the round's own count, taken while
   * the process managers fall behind, leaves out.
   */
  allWork: CpuCount;
  processManagers: Backlog;
  /** What the workers logged at `warn` or above from the first append until `processManagers`. */
  workersLogged: Record<string, number>;
}>;

/**
 * The process managers (reactors) after the round: how many events behind the last message they
 * were when the appends ended, then how long after that every partition of every one had passed it,
 * or how far behind they still were `PROCESS_MANAGERS_WAIT_MS` later. Without it a change that lets
 * them fall behind (the lag measures the projections) would pass for a faster pipeline: round 20
 * found the extraction and the summaries doing so.
 */
type Backlog = Readonly<{
  /**
   * Events the process managers were behind when the round's appends began: what the earlier round
   * left once given `PROCESS_MANAGERS_SETTLE_MS` more (then it is in this one's figures too).
   */
  behindAtStart: number;
}> &
  CaughtUp;

/** Where the process managers stood at the round's last message, and once the wait was over. */
type CaughtUp = Readonly<
  {
    behindAtEnd: number;
    /** Each process manager's events behind the last message when the appends ended (its slowest partition). */
    behindAtEndBy: Readonly<Record<string, number>>;
  } & ({ caughtUpMs: number } | { behindAfterWait: number })
>;

const PROCESS_MANAGERS_WAIT_MS = 120_000;
/** How much longer, after a round's wait, the process managers are given to reach the head. */
const PROCESS_MANAGERS_SETTLE_MS = 300_000;

/**
 * The scheduling priority of the process managers' worker in the round by role: on the same cores
 * as the projections, they take what the projections leave (a niceness of 10 weighs a tenth of 0).
 */
const PROCESS_MANAGERS_NICE = 10;

type Pending = { position: number; at: number; checkpoints: readonly string[]; seen: boolean };

/**
 * One load phase at the lag rate: each message's lag, and how the appends went. A message is visible
 * once the checkpoints its owner's context read waits for (`checkpointsFor`: the partition holding
 * that user, of every context read model) have reached its position, which is what the API's
 * read-your-writes (`minPosition`) waits for. Also recorded: until every partition had passed it
 * (the lowest checkpoint of them all), which partitions holding none of its events reach by
 * recording skipped batches.
 */
async function measureLags(
  store: MainStore,
  options: BenchOptions,
  writer: MessageWriter,
): Promise<Lags> {
  const partitions = (await recordedPartitionCount(rowsOf(store.pool))) ?? 1;
  const names = allCheckpointsOf(CONTEXT_READ_MODELS, partitions);
  let pending: Pending[] = [];
  const lags: number[] = [];
  const everywhere: number[] = [];
  let polling = true;
  // The last message appended, and when its append ended: what the process managers must pass.
  const ended = { position: 0, at: 0 };
  const poller = (async () => {
    while (polling || pending.length > 0) {
      const reached = await checkpointPositions(store.pool, names);
      const now = performance.now();
      const lowest = Math.min(...names.map((name) => reached.get(name) ?? 0));
      pending = pending.filter((message) => {
        if (
          !message.seen &&
          message.checkpoints.every((name) => (reached.get(name) ?? 0) >= message.position)
        ) {
          message.seen = true;
          lags.push(now - message.at);
        }
        if (message.position > lowest) return true;
        everywhere.push(now - message.at);
        return !message.seen;
      });
      await sleep(2);
    }
  })();
  const cpu = countCpu(engramPids(store));
  const logged = () => workersOf(store).map((worker) => worker.problems.snapshot());
  const loggedBefore = logged();
  const behindAtStart = await reactorsBehind(store.pool, await storeHead(store.pool));
  const run = await runAtFixedRate(options.lagRate, options.seconds, async (index) => {
    const { position, owner } = await writer.record(index);
    const checkpoints = checkpointsFor(CONTEXT_READ_MODELS, owner, partitions);
    pending.push({ position, at: performance.now(), checkpoints, seen: false });
    ended.position = Math.max(ended.position, position);
  });
  ended.at = performance.now();
  const behindAtEndBy = await reactorsBehindBy(store.pool, ended.position);
  polling = false;
  await poller;
  const counted = cpu();
  const processManagers = { behindAtStart, ...(await catchUp(store.pool, ended, behindAtEndBy)) };
  const allWork = cpu();
  const workersLogged = loggedSince(loggedBefore, logged());
  return { lags, everywhere, run, cpu: counted, allWork, processManagers, workersLogged };
}

/**
 * Waits, at most `PROCESS_MANAGERS_SETTLE_MS`, until every process manager's partitions have passed
 * the head of the store (their own appends included), so that a round does not inherit the previous
 * one's backlog: at 60 s a round's wait often ends with the process managers still behind, and their
 * catch-up then shares the cores with the next round's load (BENCHMARKS round 32). What is left past
 * the bound is the next round's `behindAtStart`.
 */
async function settleProcessManagers(pool: Pool): Promise<void> {
  const deadline = performance.now() + PROCESS_MANAGERS_SETTLE_MS;
  while (performance.now() < deadline) {
    if ((await reactorsBehind(pool, await storeHead(pool))) === 0) return;
    await sleep(500);
  }
}

/** How many events the lowest checkpoint of the process managers' partitions is behind `position`. */
async function reactorsBehind(pool: Pool, position: number): Promise<number> {
  const { rows } = await pool.query<{ lowest: string | null }>(
    "SELECT min(position) AS lowest FROM projection_checkpoints WHERE name LIKE 'reactor:%'",
  );
  return Math.max(0, position - Number(rows[0]!.lowest ?? 0));
}

/** The same, per process manager (its lowest partition): which of them holds the backlog. */
async function reactorsBehindBy(pool: Pool, position: number): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ reactor: string; lowest: string }>(
    `SELECT split_part(substr(name, 9), '#', 1) AS reactor, min(position) AS lowest
       FROM projection_checkpoints WHERE name LIKE 'reactor:%' GROUP BY 1 ORDER BY 1`,
  );
  return Object.fromEntries(
    rows.map((row) => [row.reactor, Math.max(0, position - Number(row.lowest))]),
  );
}

/**
 * Polls the process managers' checkpoints every 100 ms until the lowest has passed the last message
 * (`ended`: its position, and when the appends ended). A reactor stores the batches it passes
 * without a reaction within a second, so "caught up" reads up to a second late.
 */
async function catchUp(
  pool: Pool,
  ended: Readonly<{ position: number; at: number }>,
  behindAtEndBy: Readonly<Record<string, number>>,
): Promise<CaughtUp> {
  const behindAtEnd = Math.max(0, ...Object.values(behindAtEndBy));
  while (performance.now() - ended.at < PROCESS_MANAGERS_WAIT_MS) {
    if ((await reactorsBehind(pool, ended.position)) === 0) {
      return {
        behindAtEnd,
        behindAtEndBy,
        caughtUpMs: performance.now() - ended.at,
      };
    }
    await sleep(100);
  }
  return {
    behindAtEnd,
    behindAtEndBy,
    behindAfterWait: await reactorsBehind(pool, ended.position),
  };
}

/** The positions of the checkpoints `names` (a statement prepared once per connection: asked every 2 ms). */
async function checkpointPositions(
  pool: Pool,
  names: readonly string[],
): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ name: string; position: string }>({
    name: 'bench-lag-checkpoints',
    text: 'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)',
    values: [names],
  });
  return new Map(rows.map((row) => [row.name, Number(row.position)]));
}

/** `query` answering rows, as the projections' helpers take it. */
function rowsOf(pool: Pool) {
  return {
    query: async <T>(text: string): Promise<T> => (await pool.query(text)).rows as T,
  };
}

async function notifyLag(store: MainStore, options: BenchOptions): Promise<number[]> {
  const listener = new Client({ connectionString: store.database.ownerUrl });
  await listener.connect();
  const pool = new Pool({ connectionString: store.database.ownerUrl, max: 16 });
  const ackedAt = new Map<string, number>();
  const heardAt = new Map<string, number>();
  listener.on('notification', (message) => heardAt.set(message.payload ?? '', performance.now()));
  try {
    await listener.query('LISTEN bench_lag');
    await pool.query('CREATE TABLE bench_lag (id uuid PRIMARY KEY, body jsonb NOT NULL)');
    await runAtFixedRate(options.lagRate, options.seconds, async (index) => {
      const id = randomUUID();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('INSERT INTO bench_lag VALUES ($1, $2)', [id, messageBody(index)]);
        await client.query('SELECT pg_notify($1, $2)', ['bench_lag', id]);
        await client.query('COMMIT');
        ackedAt.set(id, performance.now());
      } finally {
        client.release();
      }
    });
    await sleep(200);
    await pool.query('DROP TABLE bench_lag');
    // The notification can be heard before the COMMIT's answer is read: that is no lag at all.
    return [...ackedAt].flatMap(([id, acked]) => {
      const heard = heardAt.get(id);
      return heard === undefined ? [] : [Math.max(0, heard - acked)];
    });
  } finally {
    await listener.end();
    await pool.end();
  }
}
