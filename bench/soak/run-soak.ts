import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { createBenchDatabase, type BenchDatabase } from '../support/bench-database';
import { lowestCheckpoint, storeHead } from '../support/checkpoints';
import { startEngram, type EngramProcess } from '../support/engram-process';
import { Workers, runChaos, type Failover } from './chaos';
import {
  type Invariant,
  exactlyOnce,
  leasesBehaved,
  noServerErrors,
  readModelsAgree,
  rebuildChangesNothing,
  retriesAnsweredAlike,
  shutdownWasGraceful,
} from './invariants';
import { LeaseWatch } from './lease-watch';
import { ProcessWarnings } from './process-warnings';
import { checkpointsAt, waitUntilSettled } from './settle';
import { SoakApi } from './soak-api';
import { SoakLog } from './soak-log';
import { parseSoakOptions, type SoakOptions } from './soak-options';
import { MUTED_AGENT_ID, SOAK_WORKSPACE, soakUsers, type SoakUsers } from './soak-users';
import { renderSummary, type SoakSummary } from './summary';
import { startTraffic } from './traffic';

/**
 * The soak: an API and several workers as real processes on a throwaway database, mixed traffic from
 * virtual clients while workers are SIGKILLed and restarted, then a graceful stop and the invariants.
 * Exits 1 when one fails.
 */
async function main(): Promise<void> {
  const options = parseSoakOptions(process.argv.slice(2));
  const database = await createBenchDatabase(options.serverUrl, 'soak');
  const pool = new Pool({ connectionString: database.ownerUrl, max: 4 });
  const warnings = new ProcessWarnings();
  const workers = new Workers(database, warnings);
  let api: EngramProcess | undefined;
  try {
    api = await startEngram('api', database);
    warnings.follow('api', api.child);
    const summary = await soak(options, database, pool, api, workers, warnings);
    process.stdout.write(renderSummary(summary));
    if (summary.invariants.some((check) => !check.pass)) process.exitCode = 1;
  } finally {
    // After a failure, nothing is left running.
    const running = api ? [api, ...workers.live] : workers.live;
    await Promise.all(running.map((started) => started.stop()));
    await pool.end();
    if (options.keepDatabase) process.stderr.write(`kept database ${database.name}\n`);
    else await database.drop();
  }
}

async function soak(
  options: SoakOptions,
  database: BenchDatabase,
  pool: Pool,
  api: EngramProcess,
  workers: Workers,
  warnings: ProcessWarnings,
): Promise<SoakSummary> {
  for (let index = 0; index < options.workers; index += 1) await workers.start();
  const users = await soakUsers();
  const log = new SoakLog();
  const client = new SoakApi(api.url, log);
  await setPolicy(client, users);

  const watch = new LeaseWatch(pool, () => workers.livePids());
  if (!(await watch.waitUntilCovered(30_000)))
    throw new Error('the workers never took every lease');
  watch.reset();
  const watching = new AbortController();
  const watched = watch.watch(watching.signal);

  const startedAt = Date.now();
  const chaosSignal = new AbortController();
  const traffic = startTraffic({ api: client, users, log, switches: new Map() }, options.clients);
  const chaos: Promise<Failover[]> = options.chaos
    ? runChaos(workers, watch, options.seconds, chaosSignal.signal)
    : Promise.resolve([]);
  // Awaited once the traffic stops; until then a failure must not crash the process unseen.
  chaos.catch(() => undefined);
  const progress = setInterval(
    () => void reportProgress(pool, log, startedAt).catch(() => undefined),
    15_000,
  );
  await sleep(options.seconds * 1000);
  clearInterval(progress);
  await traffic.stop();
  const seconds = (Date.now() - startedAt) / 1000;
  chaosSignal.abort();
  const failovers = await chaos;

  const exits: { name: string; code: number | null; signal: string | null }[] = [];
  const stop = async (name: string, started: EngramProcess) => {
    await started.stop();
    exits.push({ name, code: started.child.exitCode, signal: started.child.signalCode });
  };
  // The API first: it appends too (memory usage), so the store head moves until it is gone.
  await stop('api', api);
  const settled = await waitUntilSettled(pool, { debounceSeconds: 1 });
  watching.abort();
  await watched;
  const stoppedPids = workers.livePids();
  await Promise.all(workers.live.map((worker, index) => stop(`worker ${index + 1}`, worker)));
  const stillAtHead =
    (await storeHead(pool)) === settled.head && (await checkpointsAt(pool, settled.head));

  const checks: (() => Invariant | Promise<Invariant>)[] = [
    () => noServerErrors(log),
    () => exactlyOnce(pool, log),
    () => readModelsAgree(pool, log),
    () => rebuildChangesNothing(database),
    () =>
      leasesBehaved(pool, { failovers, longestUncoveredMs: watch.longestUncoveredMs, stoppedPids }),
    () => retriesAnsweredAlike(log),
    () => shutdownWasGraceful(exits, { ...settled, stillAtHead }),
  ];
  const invariants: Invariant[] = [];
  for (const check of checks) invariants.push(await evaluate(check));
  return {
    seconds,
    clients: options.clients,
    workers: options.workers,
    requests: log.requests,
    operations: log.rows(),
    failovers,
    peakRssMiB: { api: api.peakRssMiB(), workers: workers.peakRssMiB() },
    events: settled.head,
    warnings,
    invariants,
  };
}

/**
 * Review by the admins, except confident candidates (≥ 0.86: "je préfère…", names) which are approved
 * at once; small windows and cap so that summaries and evictions happen; one agent with memory off.
 */
async function setPolicy(client: SoakApi, users: SoakUsers): Promise<void> {
  const token = users.adminToken;
  const policy = await client.send(
    'PUT memory-policy',
    `/v1/workspaces/${SOAK_WORKSPACE}/memory-policy`,
    {
      method: 'PUT',
      token,
      body: {
        reviewMode: 'admin',
        autoApproveAbove: 0.86,
        liveWindow: 10,
        summaryBatch: 5,
        userMemoryCap: 40,
      },
    },
  );
  const agent = await client.send(
    'PUT agent memory',
    `/v1/workspaces/${SOAK_WORKSPACE}/agents/${MUTED_AGENT_ID}/memory`,
    { method: 'PUT', token, body: { enabled: false } },
  );
  if (policy.status !== 200 || agent.status !== 200) {
    throw new Error(`setting the policy failed: ${policy.status}, ${agent.status}`);
  }
}

/** A check that throws (the rebuild CLI failed, a query failed) is a failure, not a lost summary. */
async function evaluate(check: () => Invariant | Promise<Invariant>): Promise<Invariant> {
  try {
    return await check();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name: 'could not be checked', pass: false, details: [message.slice(0, 2000)] };
  }
}

async function reportProgress(pool: Pool, log: SoakLog, startedAt: number): Promise<void> {
  const [head, lowest] = await Promise.all([storeHead(pool), lowestCheckpoint(pool)]);
  process.stderr.write(
    `soak ${Math.round((Date.now() - startedAt) / 1000)} s: ${log.requests} requests, ` +
      `store head ${head}, slowest projection at ${lowest}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
