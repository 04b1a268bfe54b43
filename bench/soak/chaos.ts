import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchDatabase } from '../support/bench-database';
import { startEngram, type EngramProcess } from '../support/engram-process';
import type { LeaseWatch } from './lease-watch';
import type { ProcessWarnings } from './process-warnings';

export const LEASE_TTL_SECONDS = 2;
export const WORKER_ENV = {
  ENGRAM_LEASE_TTL_SECONDS: String(LEASE_TTL_SECONDS),
  ENGRAM_SCHEDULER_INTERVAL_SECONDS: '2',
  ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '1',
};
/**
 * How long a partition may stay without a live holder: the dead worker's lease runs out (≤ TTL after
 * its last renewal), then a survivor's next balance (every TTL/3) takes it; plus a second of slack
 * for the queries and the watch's polling.
 */
export const FAILOVER_BOUND_MS = Math.round(((4 / 3) * LEASE_TTL_SECONDS + 1) * 1000);

/** The worker processes, live and past (their peak memory counts too). */
export class Workers {
  readonly live: EngramProcess[] = [];
  private readonly everyone: EngramProcess[] = [];

  constructor(
    private readonly database: BenchDatabase,
    private readonly warnings: ProcessWarnings,
  ) {}

  async start(): Promise<EngramProcess> {
    const worker = await startEngram('worker', this.database, WORKER_ENV);
    this.warnings.follow(`worker ${this.everyone.length + 1}`, worker.child);
    this.live.push(worker);
    this.everyone.push(worker);
    return worker;
  }

  livePids(): ReadonlySet<number> {
    return new Set(this.live.map((worker) => worker.child.pid!));
  }

  peakRssMiB(): number {
    return Math.max(0, ...this.everyone.map((worker) => worker.peakRssMiB()));
  }

  async kill(worker: EngramProcess): Promise<void> {
    worker.peakRssMiB();
    this.live.splice(this.live.indexOf(worker), 1);
    const exited = new Promise((resolve) => worker.child.once('exit', resolve));
    worker.child.kill('SIGKILL');
    await exited;
  }
}

export type Failover = Readonly<{
  /** From the SIGKILL until every partition was held by a live worker again; null if it never was. */
  failoverMs: number | null;
  /** The allowed time: the bound, plus the replacement's start-up when no other worker was alive. */
  boundMs: number;
  restartMs: number;
}>;

/** How many kills a run of `seconds` gets: one per quarter, fewer when a cycle would not fit. */
export function plannedKills(seconds: number): number {
  return Math.min(3, Math.max(1, Math.floor(seconds / 20)));
}

/** SIGKILLs a worker at evenly spaced moments of the run, measures the failover, restarts it. */
export async function runChaos(
  workers: Workers,
  watch: LeaseWatch,
  seconds: number,
  signal: AbortSignal,
): Promise<Failover[]> {
  const kills = plannedKills(seconds);
  const startedAt = Date.now();
  const failovers: Failover[] = [];
  for (let kill = 1; kill <= kills; kill += 1) {
    const due = startedAt + (kill * seconds * 1000) / (kills + 1);
    await sleep(Math.max(0, due - Date.now()), undefined, { signal }).catch(() => undefined);
    if (signal.aborted) break;
    failovers.push(await killAndRestart(workers, watch, workers.live[kill % workers.live.length]!));
  }
  return failovers;
}

async function killAndRestart(
  workers: Workers,
  watch: LeaseWatch,
  victim: EngramProcess,
): Promise<Failover> {
  const killedAt = Date.now();
  await workers.kill(victim);
  const restart = async () => {
    const began = Date.now();
    await workers.start();
    return Date.now() - began;
  };
  // With no survivor, only the replacement can take the partitions over.
  const restartMs = workers.live.length === 0 ? await restart() : 0;
  const boundMs = FAILOVER_BOUND_MS + restartMs;
  const covered = await watch.waitUntilCovered(boundMs * 3);
  const failoverMs = covered ? Date.now() - killedAt : null;
  return { failoverMs, boundMs, restartMs: restartMs || (await restart()) };
}
