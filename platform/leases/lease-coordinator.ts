import { setTimeout as sleep } from 'node:timers/promises';
import { leaseTable, type Sql } from './lease-table';

/** A piece of background work that runs until its signal aborts (and stops cleanly when it does). */
export type Partition = Readonly<{
  name: string;
  /**
   * The kind of work (`projections`, `process-managers`): each role's partitions are shared among
   * the live workers that run that role.
   */
  role: string;
  run: (signal: AbortSignal) => Promise<void>;
}>;

export type LeaseOptions = Readonly<{
  workerId: string;
  /** A lease not renewed for this long is free for another worker: the failover bound. */
  ttlSeconds: number;
  onChange?: (change: { partition: string; kind: 'acquired' | 'lost' | 'released' }) => void;
  onError?: (error: unknown) => void;
  /**
   * Every role of the deployment, with `onUnrunRole` told (once, until a worker runs it again) of a
   * role no live worker has run for a lease period: its partitions wait for nobody.
   */
  everyRole?: readonly string[];
  onUnrunRole?: (role: string) => void;
}>;

type Running = { controller: AbortController; done: Promise<void> };

/**
 * How often a worker balances at most, whatever the lease period: a newcomer waits for the holders
 * to notice it and give back their surplus, so with 15 s leases (a balance every 5 s) a second worker
 * started beside a busy one sat idle for up to two of those periods.
 */
const MAX_BALANCE_INTERVAL_MS = 1000;

/**
 * Shares the partitions among the live workers: each worker heartbeats with the roles of its
 * partitions, renews what it holds every third of the lease period (every second at most), gives
 * back what exceeds its fair share of each role (the role's partitions / the live workers running
 * that role, rounded up) and takes free partitions up to it. Partitions are kept and
 * taken grouped by partition index (`memories#0/4`, `sessions#0/4`, … before `…#1/4`), so a worker
 * holds every consumer of a few owner slices and decodes only their events, not every event of the
 * log. A partition runs only while its lease is held; when this worker cannot renew for two thirds
 * of the period it stops everything, before any other worker may take over.
 */
export class LeaseCoordinator {
  private readonly running = new Map<string, Running>();
  private lastRenewal = Date.now();
  private readonly startedAt = Date.now();
  private readonly unrunReported = new Set<string>();
  /** The partitions' names by role. */
  private readonly roles = new Map<string, string[]>();

  constructor(
    private readonly sql: Sql,
    private readonly partitions: readonly Partition[],
    private readonly options: LeaseOptions,
  ) {
    for (const { name, role } of partitions) {
      this.roles.set(role, [...(this.roles.get(role) ?? []), name]);
    }
  }

  get held(): readonly string[] {
    return [...this.running.keys()].sort();
  }

  /** Runs until `signal` aborts, then stops every partition (each finishes its batch) and releases it. */
  async run(signal: AbortSignal): Promise<void> {
    const { ttlSeconds } = this.options;
    await leaseTable.ensurePartitions(
      this.sql,
      this.partitions.map((partition) => partition.name),
    );
    while (!signal.aborted) {
      try {
        await this.balance();
        this.lastRenewal = Date.now();
      } catch (error) {
        this.options.onError?.(error);
        if (Date.now() - this.lastRenewal > (ttlSeconds * 1000 * 2) / 3) {
          await this.stopAll('lost');
        }
      }
      const interval = Math.min((ttlSeconds * 1000) / 3, MAX_BALANCE_INTERVAL_MS);
      await sleep(interval, undefined, { signal }).catch(() => undefined);
    }
    await this.shutdown();
  }

  private async balance(): Promise<void> {
    const { workerId, ttlSeconds } = this.options;
    await leaseTable.heartbeat(this.sql, workerId, [...this.roles.keys()], ttlSeconds);
    const renewed = await leaseTable.renew(this.sql, workerId, this.held, ttlSeconds);
    for (const name of this.held) if (!renewed.has(name)) await this.stop(name, 'lost');
    const live = await leaseTable.liveWorkersByRole(this.sql, ttlSeconds);
    this.reportUnrunRoles(live);
    const surplus: string[] = [];
    const wanted = new Map<string, number>();
    for (const [role, names] of this.roles) {
      const fairShare = Math.ceil(names.length / Math.max(1, live.get(role) ?? 0));
      const held = inSliceOrder(names.filter((name) => this.running.has(name)));
      surplus.push(...held.slice(fairShare));
      if (held.length < fairShare) wanted.set(role, fairShare - held.length);
    }
    if (surplus.length > 0) {
      // Each stop waits for the partition's batch in flight: all at once, not one after the other.
      await Promise.all(surplus.map((name) => this.stop(name, 'released')));
      await leaseTable.release(this.sql, workerId, surplus);
    }
    if (wanted.size === 0) return;
    const free = new Set(
      await leaseTable.free(
        this.sql,
        this.partitions.map((partition) => partition.name),
      ),
    );
    const taking = [...wanted].flatMap(([role, count]) =>
      rotate(inSliceOrder(this.roles.get(role)!.filter((name) => free.has(name))), workerId).slice(
        0,
        count,
      ),
    );
    // One statement for all: one at a time, a worker starting beside busy runners took a minute to
    // take 72 partitions.
    const taken = new Set(await leaseTable.acquire(this.sql, workerId, taking, ttlSeconds));
    for (const name of taking) if (taken.has(name)) this.start(name);
  }

  private reportUnrunRoles(live: ReadonlyMap<string, number>): void {
    const { everyRole = [], onUnrunRole, ttlSeconds } = this.options;
    for (const role of everyRole) {
      if ((live.get(role) ?? 0) > 0) this.unrunReported.delete(role);
      else if (Date.now() - this.startedAt > ttlSeconds * 1000 && !this.unrunReported.has(role)) {
        this.unrunReported.add(role);
        onUnrunRole?.(role);
      }
    }
  }

  private start(name: string): void {
    const partition = this.partitions.find((candidate) => candidate.name === name);
    if (!partition) return;
    const controller = new AbortController();
    const done = partition
      .run(controller.signal)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        // A partition that ended on its own is given back, so that it is started again.
        if (!controller.signal.aborted && this.running.get(name)?.controller === controller) {
          this.running.delete(name);
          leaseTable
            .release(this.sql, this.options.workerId, [name])
            .catch((error: unknown) => this.options.onError?.(error));
        }
      });
    this.running.set(name, { controller, done });
    this.options.onChange?.({ partition: name, kind: 'acquired' });
  }

  private async stop(name: string, kind: 'lost' | 'released'): Promise<void> {
    const running = this.running.get(name);
    if (!running) return;
    this.running.delete(name);
    running.controller.abort();
    await running.done;
    this.options.onChange?.({ partition: name, kind });
  }

  private async stopAll(kind: 'lost' | 'released'): Promise<void> {
    await Promise.all(this.held.map((name) => this.stop(name, kind)));
  }

  private async shutdown(): Promise<void> {
    const held = this.held;
    await this.stopAll('released');
    try {
      await leaseTable.release(this.sql, this.options.workerId, held);
      await leaseTable.forget(this.sql, this.options.workerId);
    } catch (error) {
      // The leases expire on their own.
      this.options.onError?.(error);
    }
  }
}

/** By partition index (`…#1/4`), then name; partitions without an index (jobs) last. */
function inSliceOrder(names: readonly string[]): string[] {
  const indexOf = (name: string) => {
    const match = /#(\d+)\/\d+$/u.exec(name);
    return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
  };
  return [...names].sort((a, b) => indexOf(a) - indexOf(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Each worker starts its scan of free partitions at a different place, so they rarely race. */
function rotate(names: readonly string[], workerId: string): string[] {
  if (names.length === 0) return [];
  let hash = 0;
  for (const char of workerId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const start = hash % names.length;
  return [...names.slice(start), ...names.slice(0, start)];
}
