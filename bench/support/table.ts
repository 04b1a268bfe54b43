import type { Measurement } from './result';

const HEADERS = ['scenario', 'metric', 'engram', 'baseline', 'ratio', 'target', 'met'] as const;

function formatNumber(value: number | null, unit = ''): string {
  if (value === null || Number.isNaN(value)) return '—';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits })}${unit ? ` ${unit}` : ''}`;
}

export function tableRows(measurements: readonly Measurement[]): string[][] {
  return measurements.map((m) => [
    m.scenario,
    m.metric,
    formatNumber(m.engram, m.unit),
    formatNumber(m.baseline, m.baseline === null ? '' : m.unit),
    m.ratio === null ? '—' : `${formatNumber(m.ratio)}×`,
    m.target || '—',
    m.met === null ? '—' : m.met ? 'yes' : 'NO',
  ]);
}

/** A Markdown table (it reads as well in a terminal as in BENCHMARKS.md). */
export function renderTable(measurements: readonly Measurement[]): string {
  const rows = [[...HEADERS], ...tableRows(measurements)];
  const widths = HEADERS.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    line(rows[0]!),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...rows.slice(1).map(line),
  ].join('\n');
}
