import type { MainStore } from '../support/main-store';
import { measurement, type ScenarioResult } from '../support/result';

/** Peak resident memory of the API and the worker over the scenarios that ran on the main store. */
export function memoryScenario(store: MainStore): ScenarioResult {
  const processes = [store.api, store.worker].filter((process) => process !== undefined);
  return {
    measurements: processes.map((process) =>
      measurement({
        scenario: '7 memory',
        metric: `peak RSS of the ${process.kind} during 1–5`,
        unit: 'MiB',
        engram: process.peakRssMiB(),
        baseline: null,
      }),
    ),
  };
}
