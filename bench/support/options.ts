import { parseArgs } from 'node:util';

export const SCENARIOS = ['append', 'rebuild', 'context', 'lag', 'export', 'llm', 'scale'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Sizes and durations of one run: the full run of the issue, or a tiny smoke run for the tests. */
export type BenchOptions = Readonly<{
  serverUrl: string;
  only: readonly ScenarioName[];
  smoke: boolean;
  /** Events in the main store (context, rebuild, export at full size). */
  events: number;
  users: number;
  /** Events of the one user whose history is exported. */
  exportEvents: number;
  /** How long each load phase runs. */
  seconds: number;
  appendConnections: number;
  contextRate: number;
  lagRate: number;
  humanTurns: number;
  /**
   * Worker processes sharing the partitions (`--workers 1,2`): rebuild and lag are measured once for
   * each count, in this order; the other scenarios run beside the last count.
   */
  workers: readonly number[];
  resultsDir: string | undefined;
}>;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      only: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      events: { type: 'string' },
      users: { type: 'string' },
      'export-events': { type: 'string' },
      seconds: { type: 'string' },
      'context-rate': { type: 'string' },
      'lag-rate': { type: 'string' },
      turns: { type: 'string' },
      workers: { type: 'string' },
      results: { type: 'string' },
    },
  });
  const smoke = values.smoke ?? false;
  const only = values.only
    ? values.only.split(',').map((name) => {
        if (!(SCENARIOS as readonly string[]).includes(name)) {
          throw new Error(`--only: unknown scenario "${name}" (one of ${SCENARIOS.join(', ')})`);
        }
        return name as ScenarioName;
      })
    : SCENARIOS;
  const number = (raw: string | undefined, full: number, tiny: number) => {
    if (raw === undefined) return smoke ? tiny : full;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`not a positive number: ${raw}`);
    return value;
  };
  return {
    serverUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    only,
    smoke,
    events: number(values.events, 1_000_000, 3_000),
    users: number(values.users, 10_000, 20),
    exportEvents: number(values['export-events'], 100_000, 500),
    seconds: number(values.seconds, 10, 1),
    appendConnections: 32,
    contextRate: number(values['context-rate'], 50, 20),
    lagRate: number(values['lag-rate'], 1000, 50),
    humanTurns: number(values.turns, 100, 12),
    workers: (values.workers ?? '1').split(',').map((count) => number(count, 1, 1)),
    resultsDir: values.results,
  };
}
