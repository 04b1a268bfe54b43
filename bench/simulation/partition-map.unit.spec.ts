import {
  leaseCount,
  partitionCost,
  partitionsNeeded,
  simulateLeaseMap,
  worstLeaseMap,
  type StartOrder,
} from './partition-map';

// The worker today: 14 projections and 3 reactors partitioned, 4 jobs.
const LAYOUT = { partitionedConsumers: 17, jobs: 4 };
const DEFAULT_LEASES = leaseCount({ ...LAYOUT, partitions: 4 });
const STARTS: StartOrder[] = ['rolling', 'together'];

describe('the lease map of many workers', () => {
  it('counts one lease per partition of each consumer plus the jobs: 72 by default', () => {
    expect(DEFAULT_LEASES).toBe(72);
  });

  it.each(STARTS)('shares 72 leases evenly between 2 workers (%s start)', (start) => {
    const map = simulateLeaseMap({ leases: 72, workers: 2, start });
    expect(map).toMatchObject({ busy: 2, idle: 0, maxPerWorker: 36, minPerBusy: 36, free: 0 });
  });

  it.each(STARTS)(
    'leaves a worker idle at 10 workers under the ceil rule: 9 × 8 = 72 (%s start)',
    (start) => {
      const map = worstLeaseMap({ leases: 72, workers: 10, start, rule: 'ceil', trials: 5 });
      expect(map).toMatchObject({ busy: 9, idle: 1, maxPerWorker: 8, free: 0 });
    },
  );

  it.each(STARTS)('keeps every one of 10 workers busy under floor-first (%s start)', (start) => {
    const map = worstLeaseMap({ leases: 72, workers: 10, start, rule: 'floor-first', trials: 5 });
    expect(map).toMatchObject({ busy: 10, idle: 0, maxPerWorker: 8, minPerBusy: 7, free: 0 });
  });

  it.each(STARTS)('gives one lease each to 72 of 100 workers, whatever the rule (%s)', (start) => {
    for (const rule of ['ceil', 'floor-first'] as const) {
      const map = simulateLeaseMap({ leases: 72, workers: 100, start, rule });
      expect(map).toMatchObject({ busy: 72, idle: 28, maxPerWorker: 1, free: 0 });
    }
  });

  it('never hands out more leases than there are, nor more than the fair share to one worker', () => {
    for (const workers of [1, 3, 7, 10, 31, 50]) {
      for (const start of STARTS) {
        for (const rule of ['ceil', 'floor-first'] as const) {
          const map = simulateLeaseMap({ leases: 59, workers, start, rule, seed: workers });
          expect(map.free).toBe(0);
          expect(map.maxPerWorker).toBeLessThanOrEqual(Math.ceil(59 / workers));
          expect(map.busy + map.idle).toBe(workers);
        }
      }
    }
  });

  it('finds the partition count that keeps every worker busy', () => {
    const options = { maxPartitions: 64, trials: 2 };
    // floor-first needs only enough leases: 17 × 6 + 4 = 106 ≥ 100.
    expect(partitionsNeeded(100, LAYOUT, { ...options, rule: 'floor-first' })).toBe(6);
    // ceil needs the leases to split into whole fair shares: 17 × 29 + 4 = 497, 100 workers × 5 ≥ 497.
    expect(partitionsNeeded(100, LAYOUT, { ...options, rule: 'ceil' })).toBe(29);
    expect(partitionsNeeded(10, LAYOUT, { ...options, rule: 'ceil' })).toBe(2);
  });

  it('counts what a partition count costs the database', () => {
    // A balance every 5 s: a third of the default 15 s lease.
    expect(partitionCost({ ...LAYOUT, partitions: 4 }, 5)).toEqual({
      partitions: 4,
      leases: 72,
      checkpointRows: 68,
      checkpointUpdatesPerBatch: 68,
      renewalsPerSecond: 14.4,
      checkpointsPerEveryOwnerWait: 4,
    });
  });
});
