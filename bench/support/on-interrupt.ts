/**
 * What a run must undo when it is interrupted (Ctrl-C, a `kill`): the API and worker processes it
 * started, its throwaway database, the server setting it changed. A run killed midway left an API
 * process running and autovacuum on for whatever ran next on the server (BENCHMARKS round 26).
 */
const pending: (() => Promise<void>)[] = [];
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** A cleanup that hangs (a pool waiting for a query in flight) must not keep the process alive. */
const CLEANUP_LIMIT_MS = 30_000;

/**
 * Runs `work`, then `cleanup`; when the process is signalled meanwhile, runs `cleanup` (the latest
 * registered first) and exits with 128 + the signal's number. `cleanup` runs once either way.
 */
export async function undoneIfInterrupted<T>(
  cleanup: () => Promise<void>,
  work: () => Promise<T>,
): Promise<T> {
  let done: Promise<void> | undefined;
  const once = () => (done ??= cleanup());
  listen();
  pending.push(once);
  try {
    return await work();
  } finally {
    pending.splice(pending.indexOf(once), 1);
    if (pending.length === 0) unlisten();
    await once();
  }
}

function listen(): void {
  if (pending.length > 0) return;
  for (const signal of SIGNALS) process.once(signal, onSignal);
}

function unlisten(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function onSignal(signal: NodeJS.Signals): void {
  process.stderr.write(`[bench] ${signal}: undoing what the run changed…\n`);
  // The scenario still running fails as its processes and pools go: that must not end the process
  // before the cleanups have.
  const ignore = () => undefined;
  process.on('unhandledRejection', ignore).on('uncaughtException', ignore);
  const cleanups = [...pending].reverse();
  const undo = (async () => {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  })();
  const limit = new Promise((resolve) => setTimeout(resolve, CLEANUP_LIMIT_MS).unref());
  void Promise.race([undo, limit]).then(() => process.exit(128 + osSignalNumber(signal)));
}

function osSignalNumber(signal: NodeJS.Signals): number {
  return { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal as (typeof SIGNALS)[number]] ?? 0;
}
