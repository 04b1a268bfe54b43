import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { PROJECTIONS } from '@engram/projections';
import {
  partitionCosts,
  partitionMapTable,
  renderPartitionMap,
} from '../simulation/partition-map-table';
import { storeHead } from '../support/checkpoints';
import { busyShare, cpuSecondsBetween, machineCpu, processCpuSeconds } from '../support/cpu-usage';
import { sampleHeadLock } from '../support/head-lock-sampler';
import { workersOf, type MainStore } from '../support/main-store';
import type { BenchOptions } from '../support/options';
import { measurement, type Measurement, type ScenarioResult } from '../support/result';
import { BENCH_MASTER_KEY } from '../support/secrets';
import { round } from '../support/stats';
import { insertRaw } from './append';
import type { AppenderReport, AppenderSetup, FromAppender, ToAppender } from './scale-appender';

/** Process counts and simulated worker counts; the smoke run keeps the first two of each. */
const PROCESS_COUNTS = [1, 2, 4];
/** messageWriter's application_name: how the sampler finds the appending backends. */
const WRITER_APPLICATION = 'bench-writer';

/**
 * The worker as platform/background-worker.ts builds it: every projection and 3 reactors
 * (extraction, summary, memory cap) run as ENGRAM_PARTITIONS partitions, plus 4 jobs; the defaults
 * are 4 partitions and a balance every third of the 15 s lease.
 */
const WORKER_LAYOUT = { partitionedConsumers: PROJECTIONS.length + 3, jobs: 4, partitions: 4 };
const BALANCE_SECONDS = 15 / 3;
const MAP_WORKERS = [2, 10, 100, 1000];

function log(message: string): void {
  process.stderr.write(`[bench] scale: ${message}\n`);
}

/**
 * Appends/s through the API's write path from 1, 2 and 4 processes (the same total of appenders,
 * split) against one PostgreSQL, with what bounds them: the head lock every append transaction
 * holds (sampled in pg_stat_activity: the share of time it is held gives its hold time per commit
 * and the most it allows, events per commit / hold time) and the CPU of this 2-core machine
 * (/proc). Baseline: raw single-row INSERTs at the same concurrency. Then the simulation of how the
 * worker's leases map to 2…1,000 workers. The workers are stopped first: their projections would
 * compete for the same cores and their reactors would append in reaction, so this is the write path
 * alone.
 */
export async function scaleScenario(
  store: MainStore,
  options: BenchOptions,
): Promise<ScenarioResult> {
  await Promise.all(workersOf(store).map((worker) => worker.stop()));
  const phases: Phase[] = [];
  let firstIndex = 10_000_000;
  const smokeSized = <T>(list: readonly T[]) => (options.smoke ? list.slice(0, 2) : list);
  for (const processes of smokeSized(PROCESS_COUNTS)) {
    const phase = await appendFrom(processes, store, options, firstIndex);
    firstIndex += 10_000_000;
    // Right after each phase: the other work on this machine changes from minute to minute.
    const raw = await insertRaw(store, options.appendConnections, options.seconds);
    phases.push({ ...phase, raw: { inserted: raw.inserted, rate: round(raw.rate) } });
    log(`${describe(phase)}; raw INSERTs ${Math.round(raw.rate)}/s`);
  }
  const mapOptions = { maxPartitions: 64, trials: options.smoke ? 1 : 3 };
  const rows = partitionMapTable(WORKER_LAYOUT, smokeSized(MAP_WORKERS), mapOptions);
  const costs = partitionCosts(WORKER_LAYOUT, rows, BALANCE_SECONDS);
  log(
    `the worker's leases over many workers:\n${renderPartitionMap(WORKER_LAYOUT, rows, costs, mapOptions)}`,
  );
  return {
    measurements: phases.flatMap((phase) => phaseMeasurements(phase, options)),
    details: {
      phases,
      partitionMap: rows,
      partitionCosts: costs,
    },
  };
}

type Phase = Readonly<{
  processes: number;
  appended: number;
  errors: number;
  firstError?: string;
  seconds: number;
  rate: number;
  latencyP50: number;
  latencyP99: number;
  events: number;
  commits: number;
  eventsPerCommit: number;
  lock: Awaited<ReturnType<ReturnType<typeof sampleHeadLock>>>;
  /** Lock held per commit, in ms (held share × window / commits). */
  holdMs: number;
  /** The most the head lock allows at this batch size: events per commit / hold time. */
  lockCap: number;
  cpu: Readonly<{
    machineBusy: number;
    appenders: number;
    backends: number;
    cores: number;
    /** The machine's 1-minute load average as the window began: other work on the same cores. */
    loadAverage: number;
  }>;
  reports: readonly AppenderReport[];
  /** The baseline measured right after: raw single-row INSERTs at the same concurrency. */
  raw?: Readonly<{ inserted: number; rate: number }>;
}>;

async function appendFrom(
  processes: number,
  store: MainStore,
  options: BenchOptions,
  firstIndex: number,
): Promise<Phase> {
  const appenders = Math.max(1, Math.round(options.appendConnections / processes));
  const children = Array.from({ length: processes }, () =>
    fork(join(__dirname, 'scale-appender.js'), [], { execArgv: [], stdio: 'inherit' }),
  );
  try {
    const setup = (index: number): AppenderSetup => ({
      appUrl: store.database.appUrl,
      masterKey: BENCH_MASTER_KEY.toString('base64'),
      users: store.plan.users,
      appenders,
      warmupSeconds: options.smoke ? 0.2 : 1,
      seconds: options.seconds,
      firstIndex: firstIndex + index * 1_000_000,
    });
    const ready = children.map((child) => nextMessage(child, 'ready'));
    children.forEach((child, index) => tell(child, { kind: 'setup', setup: setup(index) }));
    await Promise.all(ready);
    const headBefore = await storeHead(store.pool);
    const backendPids = await writerBackends(store);
    const backendsBefore = processCpuSeconds(backendPids);
    const loadBefore = loadavg()[0]!;
    const machineBefore = machineCpu();
    const stopSampling = sampleHeadLock(store.pool, WRITER_APPLICATION);
    const done = children.map((child) => nextMessage(child, 'done'));
    for (const child of children) tell(child, { kind: 'go' });
    const reports = (await Promise.all(done)).map((message) => message.report);
    if (reports.every((report) => report.appended === 0)) {
      throw new Error(
        `scale: no append succeeded (${reports.find((r) => r.firstError)?.firstError})`,
      );
    }
    const lock = await stopSampling();
    const machineBusy = busyShare(machineBefore, machineCpu());
    const backends = cpuSecondsBetween(backendsBefore, processCpuSeconds(backendPids));
    const headAfter = await storeHead(store.pool);
    const { events, commits } = await commitsBetween(store, headBefore, headAfter);
    const seconds = Math.max(...reports.map((report) => report.seconds));
    const appended = reports.reduce((sum, report) => sum + report.appended, 0);
    const holdMs = commits > 0 ? (lock.heldShare * seconds * 1000) / commits : Number.NaN;
    const eventsPerCommit = commits > 0 ? events / commits : Number.NaN;
    const firstError = reports.find((report) => report.firstError)?.firstError;
    return {
      processes,
      appended,
      errors: reports.reduce((sum, report) => sum + report.errors, 0),
      ...(firstError ? { firstError } : {}),
      seconds: round(seconds),
      rate: appended / seconds,
      latencyP50: round(Math.max(...reports.map((report) => report.latencyP50))),
      latencyP99: round(Math.max(...reports.map((report) => report.latencyP99))),
      events,
      commits,
      eventsPerCommit: round(eventsPerCommit),
      lock,
      holdMs: round(holdMs, 3),
      lockCap: eventsPerCommit / (holdMs / 1000),
      cpu: {
        machineBusy: round(machineBusy, 3),
        appenders: round(reports.reduce((sum, report) => sum + report.cpuSeconds, 0) / seconds, 3),
        backends: round(backends / seconds, 3),
        cores: cpus().length,
        loadAverage: round(loadBefore),
      },
      reports,
    };
  } finally {
    for (const child of children) if (child.connected) tell(child, { kind: 'close' });
    await Promise.all(children.map(exited));
  }
}

function phaseMeasurements(phase: Phase, options: BenchOptions): Measurement[] {
  const label = `${phase.processes} process${phase.processes > 1 ? 'es' : ''}`;
  return [
    measurement({
      scenario: '8 scale',
      metric: `appends/s from ${label}, ${options.appendConnections} appenders in all`,
      unit: 'msg/s',
      engram: phase.rate,
      baseline: phase.raw?.rate ?? null,
    }),
    measurement({
      scenario: '8 scale',
      metric: `head-lock cap at ${label}: ${phase.eventsPerCommit} events/commit ÷ ${phase.holdMs} ms held`,
      unit: 'events/s',
      engram: phase.lockCap,
      baseline: null,
    }),
  ];
}

function describe(phase: Phase): string {
  const share = (value: number) => `${Math.round(value * 100)} %`;
  return (
    `${phase.processes} process(es): ${Math.round(phase.rate)} appends/s, ` +
    `${phase.eventsPerCommit} events per commit, lock held ${share(phase.lock.heldShare)} ` +
    `(${phase.holdMs} ms per commit, cap ${Math.round(phase.lockCap)}/s), waited on ` +
    `${share(phase.lock.waitShare)} of ${phase.lock.samples} samples ` +
    `(${JSON.stringify(phase.lock.waitEvents)}), CPU: machine ` +
    `${share(phase.cpu.machineBusy)} of ${phase.cpu.cores} cores, appenders ` +
    `${phase.cpu.appenders} cores, their backends ${phase.cpu.backends} cores, load average ` +
    `${phase.cpu.loadAverage}`
  );
}

/**
 * Events and commits in (from, to]: every event of one append transaction has the same recorded_at
 * (now() is the transaction's start), and no two transactions start at the same microsecond here.
 */
async function commitsBetween(store: MainStore, from: number, to: number) {
  const { rows } = await store.pool.query<{ events: number; commits: number }>(
    `SELECT count(*)::int AS events, count(DISTINCT recorded_at)::int AS commits
       FROM events WHERE global_position > $1 AND global_position <= $2`,
    [from, to],
  );
  return rows[0]!;
}

async function writerBackends(store: MainStore): Promise<number[]> {
  const { rows } = await store.pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [WRITER_APPLICATION],
  );
  return rows.map((row) => row.pid);
}

function tell(child: ChildProcess, message: ToAppender): void {
  child.send(message);
}

function nextMessage<K extends FromAppender['kind']>(
  child: ChildProcess,
  kind: K,
): Promise<Extract<FromAppender, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromAppender) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<FromAppender, { kind: K }>);
    };
    const onExit = (code: number | null) =>
      reject(new Error(`scale: an appender process exited (${code}) before "${kind}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Resolves when the appender has exited (it does on its own after "done"); killed after 10 s. */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
