import { percentile } from '../support/stats';
import type { Failover } from './chaos';
import type { Invariant } from './invariants';
import type { OperationRow } from './soak-log';

export type SoakSummary = Readonly<{
  seconds: number;
  clients: number;
  workers: number;
  requests: number;
  operations: readonly OperationRow[];
  failovers: readonly Failover[];
  peakRssMiB: Readonly<{ api: number; workers: number }>;
  events: number;
  warnings: Readonly<{ count: number; lines: readonly string[] }>;
  invariants: readonly Invariant[];
}>;

export function renderSummary(summary: SoakSummary): string {
  const failovers = summary.failovers.length
    ? summary.failovers
        .map(
          ({ failoverMs, boundMs, restartMs }) =>
            `${failoverMs === null ? 'never' : `${(failoverMs / 1000).toFixed(2)} s`} (bound ${(boundMs / 1000).toFixed(2)} s, restart ${(restartMs / 1000).toFixed(1)} s)`,
        )
        .join('; ')
    : 'no kill (--no-chaos)';
  return [
    '',
    `Soak: ${summary.seconds.toFixed(0)} s, ${summary.clients} clients, ${summary.workers} workers — ` +
      `${summary.requests} requests (${(summary.requests / summary.seconds).toFixed(1)}/s), ${summary.events} events in the store`,
    '',
    table(
      ['operation', 'count', 'statuses', 'p50 ms', 'p99 ms'],
      summary.operations.map((row) => [
        row.operation,
        String(row.count),
        [...row.statuses.entries()]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status || 'none'}×${count}`)
          .join(' '),
        percentile(row.latencies, 50).toFixed(1),
        percentile(row.latencies, 99).toFixed(1),
      ]),
    ),
    '',
    `Worker failovers: ${failovers}`,
    `Peak RSS: api ${summary.peakRssMiB.api.toFixed(0)} MiB, workers ${summary.peakRssMiB.workers.toFixed(0)} MiB (highest of any worker process)`,
    `Warnings and errors the processes logged: ${summary.warnings.count}`,
    ...summary.warnings.lines.slice(0, 10).map((line) => `  ${line}`),
    '',
    'Invariants:',
    ...summary.invariants.flatMap((check, index) => [
      `  ${check.pass ? 'PASS' : 'FAIL'} (${index + 1}) ${check.name}`,
      ...check.details.map((detail) => `         ${detail}`),
    ]),
    '',
  ].join('\n');
}

/** A Markdown table, readable in a terminal and pasteable in an issue. */
function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, column) => Math.max(...all.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    line(headers),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
