import {
  leaseCount,
  partitionCost,
  partitionsNeeded,
  worstLeaseMap,
  type LeaseLayout,
  type LeaseMap,
  type PartitionCost,
  type StartOrder,
} from './partition-map';

export type PartitionMapRow = Readonly<{
  workers: number;
  /** The worst of both start orders under today's rule, at the configured partition count. */
  today: LeaseMap;
  /** Smallest ENGRAM_PARTITIONS (≤ maxPartitions) with no idle worker: today's rule, floor-first. */
  neededCeil: number | undefined;
  neededFloorFirst: number | undefined;
  /** Today's rule at maxPartitions, when no count keeps every worker busy. */
  atMaxPartitions: LeaseMap;
}>;

export type PartitionMapOptions = Readonly<{ maxPartitions: number; trials: number }>;

const STARTS: readonly StartOrder[] = ['rolling', 'together'];

function worstOfStarts(leases: number, workers: number, trials: number): LeaseMap {
  const maps = STARTS.map((start) =>
    worstLeaseMap({ leases, workers, start, rule: 'ceil', trials }),
  );
  return maps.reduce((worst, map) => (map.idle > worst.idle ? map : worst));
}

/** How today's leases map to each number of `workers`, and the partition count each would need. */
export function partitionMapTable(
  layout: LeaseLayout,
  workers: readonly number[],
  options: PartitionMapOptions,
): PartitionMapRow[] {
  const { partitions: _configured, ...consumers } = layout;
  return workers.map((count) => ({
    workers: count,
    today: worstOfStarts(leaseCount(layout), count, options.trials),
    neededCeil: partitionsNeeded(count, consumers, { ...options, rule: 'ceil' }),
    neededFloorFirst: partitionsNeeded(count, consumers, { ...options, rule: 'floor-first' }),
    atMaxPartitions: worstOfStarts(
      leaseCount({ ...layout, partitions: options.maxPartitions }),
      count,
      options.trials,
    ),
  }));
}

/** The costs of the configured count and of each count the table found needed. */
export function partitionCosts(
  layout: LeaseLayout,
  rows: readonly PartitionMapRow[],
  balanceSeconds: number,
): PartitionCost[] {
  const counts = new Set([layout.partitions]);
  for (const row of rows) {
    if (row.neededCeil !== undefined) counts.add(row.neededCeil);
    if (row.neededFloorFirst !== undefined) counts.add(row.neededFloorFirst);
  }
  return [...counts]
    .sort((a, b) => a - b)
    .map((partitions) => partitionCost({ ...layout, partitions }, balanceSeconds));
}

/** Both tables in Markdown, as the notes and BENCHMARKS.md show them. */
export function renderPartitionMap(
  layout: LeaseLayout,
  rows: readonly PartitionMapRow[],
  costs: readonly PartitionCost[],
  options: PartitionMapOptions,
): string {
  const leases = leaseCount(layout);
  const count = (value: number | undefined) =>
    value === undefined ? `none ≤ ${options.maxPartitions}` : String(value);
  const map = [
    `| workers | busy / idle at ${layout.partitions} partitions (${leases} leases) | max leases per worker ` +
      `| ENGRAM_PARTITIONS for no idle worker: ceil rule (today) | floor-first rule ` +
      `| ceil rule at ${options.maxPartitions}: busy / idle |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.workers} | ${row.today.busy} / ${row.today.idle} | ${row.today.maxPerWorker} ` +
        `| ${count(row.neededCeil)} | ${count(row.neededFloorFirst)} ` +
        `| ${row.atMaxPartitions.busy} / ${row.atMaxPartitions.idle} |`,
    ),
  ];
  const cost = [
    '| ENGRAM_PARTITIONS | leases | checkpoint rows | checkpoint rows updated per log batch ' +
      '| lease renewals/s | checkpoints an every-owner minPosition waits for, per read model |',
    '| --- | --- | --- | --- | --- | --- |',
    ...costs.map(
      (c) =>
        `| ${c.partitions} | ${c.leases} | ${c.checkpointRows} | ${c.checkpointUpdatesPerBatch} ` +
        `| ${c.renewalsPerSecond.toFixed(1)} | ${c.checkpointsPerEveryOwnerWait} |`,
    ),
  ];
  return [...map, '', ...cost].join('\n');
}
