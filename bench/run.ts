import { join } from 'node:path';
import { appendScenario } from './scenarios/append';
import { contextScenario } from './scenarios/context';
import { exportScenario } from './scenarios/export';
import { lagScenario } from './scenarios/lag';
import { llmEconomyScenario } from './scenarios/llm-economy';
import { memoryScenario } from './scenarios/memory';
import { rebuildScenario } from './scenarios/rebuild';
import { scaleScenario } from './scenarios/scale';
import { withAutovacuum } from './support/autovacuum';
import { undoneIfInterrupted } from './support/on-interrupt';
import { waitForCheckpoints } from './support/checkpoints';
import { settleDatabase } from './support/settle-database';
import { closeMainStore, createMainStore, runWorkers, type MainStore } from './support/main-store';
import { parseOptions, type BenchOptions, type ScenarioName } from './support/options';
import type { ScenarioResult } from './support/result';
import { writeResults } from './support/results-file';
import { renderTable } from './support/table';

const ON_MAIN_STORE: readonly ScenarioName[] = [
  'rebuild',
  'context',
  'export',
  'append',
  'lag',
  'scale',
];

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function timed(
  name: string,
  results: Record<string, ScenarioResult>,
  scenario: () => Promise<ScenarioResult> | ScenarioResult,
): Promise<void> {
  log(`${name}…`);
  const started = Date.now();
  results[name] = await scenario();
  log(`${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * One worker process, as production runs by default, caught up with the store: what the context,
 * export and append scenarios run beside. Only the rebuild and the lag run once per `--workers` count
 * (a second worker left from the rebuild's last round would share the two cores with every later
 * scenario: round 3's first run measured the context beside two workers).
 */
async function ensureWorker(store: MainStore): Promise<void> {
  await runWorkers(store, 1);
  await waitForCheckpoints(store.pool, store.seededEvents);
  await settleDatabase(store.pool, log);
}

async function runOnMainStore(
  options: BenchOptions,
  results: Record<string, ScenarioResult>,
): Promise<void> {
  log(`seeding ${options.events} events of ${options.users} users…`);
  const store = await createMainStore(options);
  log(`seeded ${store.seededEvents} events in ${store.seedSeconds.toFixed(1)} s`);
  await undoneIfInterrupted(
    () => closeMainStore(store),
    () => runScenarios(store, options, results),
  );
}

async function runScenarios(
  store: MainStore,
  options: BenchOptions,
  results: Record<string, ScenarioResult>,
): Promise<void> {
  const selected = (name: ScenarioName) => options.only.includes(name);
  if (selected('rebuild')) {
    await timed('rebuild', results, () => rebuildScenario(store, options));
    await settleDatabase(store.pool, log);
  }
  await ensureWorker(store);
  if (selected('context')) await timed('context', results, () => contextScenario(store, options));
  if (selected('export')) await timed('export', results, () => exportScenario(store, options));
  if (selected('append')) await timed('append', results, () => appendScenario(store, options));
  if (selected('lag')) await timed('lag', results, () => lagScenario(store, options));
  // Last: it stops the workers.
  if (selected('scale')) await timed('scale', results, () => scaleScenario(store, options));
  results.memory = memoryScenario(store);
  results.seed = {
    measurements: [],
    details: { events: store.seededEvents, seconds: store.seedSeconds },
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const results: Record<string, ScenarioResult> = {};
  if (options.only.some((name) => ON_MAIN_STORE.includes(name))) {
    // Not at smoke size: the test suite runs it beside other tests, on the server's settings.
    const restoreAutovacuum = options.smoke
      ? async () => undefined
      : await withAutovacuum(options.serverUrl, log);
    await undoneIfInterrupted(restoreAutovacuum, () => runOnMainStore(options, results));
  }
  if (options.only.includes('llm')) {
    await timed('llm', results, () => llmEconomyScenario(options));
  }
  const measurements = Object.values(results).flatMap((result) => result.measurements);
  process.stdout.write(`\n${renderTable(measurements)}\n\n`);
  const dir = options.resultsDir ?? join(__dirname, '..', '..', 'bench', 'results');
  log(`results written to ${writeResults(dir, options, results, startedAt)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
