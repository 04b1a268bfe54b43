/** One line of the table: what Engram did, what the baseline did, and the target they are judged by. */
export type Measurement = Readonly<{
  scenario: string;
  metric: string;
  unit: string;
  engram: number;
  baseline: number | null;
  /** engram / baseline. */
  ratio: number | null;
  target: string;
  met: boolean | null;
}>;

export function measurement(
  fields: Omit<Measurement, 'ratio' | 'met' | 'target'> & { target?: string; met?: boolean | null },
): Measurement {
  return {
    ...fields,
    ratio: fields.baseline ? fields.engram / fields.baseline : null,
    target: fields.target ?? '',
    met: fields.met ?? null,
  };
}

/** What a scenario hands back: its lines, and details kept in the results file only. */
export type ScenarioResult = Readonly<{
  measurements: readonly Measurement[];
  details?: Record<string, unknown>;
}>;
