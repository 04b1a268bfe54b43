/**
 * How the worker's leases spread over many workers, simulated on counts: the rule of
 * platform/leases/lease-coordinator.ts (each balance: heartbeat, give back what exceeds the fair share
 * ceil(leases / live workers), take free leases up to it), run worker by worker in rounds until a
 * whole round changes nothing. Which lease a worker takes does not matter to the counts, so a lease
 * is not named here.
 */

/** What the worker runs: each partitioned consumer (projection or reactor) as `partitions` leases, plus the jobs. */
export type LeaseLayout = Readonly<{
  partitionedConsumers: number;
  jobs: number;
  partitions: number;
}>;

export function leaseCount(layout: LeaseLayout): number {
  return layout.partitionedConsumers * layout.partitions + layout.jobs;
}

/**
 * - `rolling`: workers start one after another, each once the others have settled (a deploy that
 *   adds them one by one);
 * - `together`: all start at once; in the first round a worker sees only the heartbeats of those that
 *   ran before it (the first one sees itself alone and takes everything).
 */
export type StartOrder = 'rolling' | 'together';

/**
 * - `ceil` is the coordinator's rule today: take up to ceil(leases / live).
 * - `floor-first` is the alternative weighed in BENCHMARKS.md: take up to floor(leases / live), and
 *   one more only while the free leases exceed what the other live workers still lack of their floor
 *   (one more query on worker_leases, grouped by holder).
 */
export type ShareRule = 'ceil' | 'floor-first';

export type LeaseMapInput = Readonly<{
  leases: number;
  workers: number;
  start: StartOrder;
  rule?: ShareRule;
  /** Seeds the order in which workers balance in each round. */
  seed?: number;
}>;

export type LeaseMap = Readonly<{
  leases: number;
  workers: number;
  /** Workers holding at least one lease. */
  busy: number;
  /** Workers holding none: they run nothing until another worker leaves. */
  idle: number;
  maxPerWorker: number;
  /** Fewest leases of a worker that holds some. */
  minPerBusy: number;
  /** Leases nobody holds at the end (0 unless the simulation did not settle). */
  free: number;
  /** Rounds of balancing (every live worker once) until nothing changed. */
  rounds: number;
}>;

const MAX_ROUNDS = 10_000;

export function simulateLeaseMap(input: LeaseMapInput): LeaseMap {
  const { leases, workers, start } = input;
  const rule = input.rule ?? 'ceil';
  const random = mulberry32(input.seed ?? 1);
  const held: number[] = [];
  let free = leases;
  let rounds = 0;

  // What the live workers lack of their floor share (floor-first only), kept up to date. In the
  // first round of a `together` start it is counted against the final floor: a transient.
  let lacking = 0;
  let liveFloor = 0;
  const deficit = (count: number, floor: number) => Math.max(0, floor - count);

  const balance = (worker: number, live: number): boolean => {
    const share = Math.ceil(leases / live);
    const floor = Math.floor(leases / live);
    const before = held[worker]!;
    let target = share;
    if (rule === 'floor-first') {
      const othersLack = lacking - deficit(before, liveFloor);
      const spare = free - othersLack - deficit(before, floor);
      if (spare < 0 && before > floor) target = Math.max(floor, before + spare);
      else if (spare > 0) target = share;
      else target = Math.min(share, Math.max(before, floor));
    }
    const after = before > target ? target : before + Math.min(target - before, free);
    if (after === before) return false;
    free -= after - before;
    held[worker] = after;
    lacking += deficit(after, liveFloor) - deficit(before, liveFloor);
    return true;
  };

  /** Rounds with `live` workers, each balancing once per round in a shuffled order, until a round changes nothing. */
  const settle = (live: number, firstRoundSeesOnlyEarlier: boolean) => {
    liveFloor = Math.floor(leases / live);
    lacking = held.reduce((sum, count) => sum + deficit(count, liveFloor), 0);
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      rounds += 1;
      let changed = false;
      shuffled(live, random).forEach((worker, turn) => {
        const seen = firstRoundSeesOnlyEarlier && round === 0 ? turn + 1 : live;
        if (balance(worker, seen)) changed = true;
      });
      if (!changed && !(firstRoundSeesOnlyEarlier && round === 0)) return;
    }
  };

  if (start === 'rolling') {
    for (let worker = 0; worker < workers; worker += 1) {
      held.push(0);
      settle(worker + 1, false);
    }
  } else {
    for (let worker = 0; worker < workers; worker += 1) held.push(0);
    settle(workers, true);
  }

  const busyCounts = held.filter((count) => count > 0);
  return {
    leases,
    workers,
    busy: busyCounts.length,
    idle: workers - busyCounts.length,
    maxPerWorker: Math.max(0, ...held),
    minPerBusy: busyCounts.length === 0 ? 0 : Math.min(...busyCounts),
    free,
    rounds,
  };
}

/** The worst of `trials` simulations (most idle workers, then most leases on one worker). */
export function worstLeaseMap(
  input: Omit<LeaseMapInput, 'seed'> & Readonly<{ trials: number }>,
): LeaseMap {
  let worst: LeaseMap | undefined;
  for (let seed = 1; seed <= input.trials; seed += 1) {
    const map = simulateLeaseMap({ ...input, seed });
    if (
      !worst ||
      map.idle > worst.idle ||
      (map.idle === worst.idle && map.maxPerWorker > worst.maxPerWorker)
    ) {
      worst = map;
    }
  }
  return worst!;
}

/**
 * The smallest partition count (up to `maxPartitions`, ENGRAM_PARTITIONS' bound) that leaves no
 * worker idle under `rule`, whatever the start order; undefined when none does.
 */
export function partitionsNeeded(
  workers: number,
  layout: Omit<LeaseLayout, 'partitions'>,
  options: Readonly<{ rule: ShareRule; maxPartitions: number; trials: number }>,
): number | undefined {
  for (let partitions = 1; partitions <= options.maxPartitions; partitions += 1) {
    const leases = leaseCount({ ...layout, partitions });
    if (leases < workers) continue;
    const starts: StartOrder[] = ['rolling', 'together'];
    const allBusy = starts.every(
      (start) =>
        worstLeaseMap({ leases, workers, start, rule: options.rule, trials: options.trials })
          .idle === 0,
    );
    if (allBusy) return partitions;
  }
  return undefined;
}

/** What `partitions` cost the database, whatever the number of workers. */
export type PartitionCost = Readonly<{
  partitions: number;
  leases: number;
  /** One checkpoint row per partition of each consumer. */
  checkpointRows: number;
  /**
   * Checkpoint rows updated per batch of the log: every partition advances its checkpoint past the
   * events of the owners it does not hold, so a batch moves all of them (in one statement per worker).
   */
  checkpointUpdatesPerBatch: number;
  /** Lease rows renewed per second: each worker renews the leases it holds at each balance. */
  renewalsPerSecond: number;
  /** Checkpoints a read with `minPosition` spanning every owner (the admins' queue) waits for, per read model. */
  checkpointsPerEveryOwnerWait: number;
}>;

export function partitionCost(layout: LeaseLayout, balanceSeconds: number): PartitionCost {
  const leases = leaseCount(layout);
  const checkpointRows = layout.partitionedConsumers * layout.partitions;
  return {
    partitions: layout.partitions,
    leases,
    checkpointRows,
    checkpointUpdatesPerBatch: checkpointRows,
    renewalsPerSecond: leases / balanceSeconds,
    checkpointsPerEveryOwnerWait: layout.partitions,
  };
}

/** Workers 0 .. count-1 in a random order (Fisher–Yates). */
function shuffled(count: number, random: () => number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/** A small seeded generator, so that a simulation gives the same answer on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
