import { setTimeout as sleep } from 'node:timers/promises';

export type FixedRateRun = Readonly<{
  /** Latency of every completed call, in milliseconds. */
  latencies: number[];
  errors: number;
  firstError: string | undefined;
  /** Calls not started because `maxInFlight` were still running (the target could not keep up). */
  skipped: number;
  seconds: number;
}>;

/**
 * Starts `call` at `rate` calls per second for `seconds`, on a schedule that does not wait for the
 * answers (an open model: a slow answer does not slow the arrivals down), and records each latency.
 */
export async function runAtFixedRate(
  rate: number,
  seconds: number,
  call: (index: number) => Promise<void>,
  maxInFlight = 512,
): Promise<FixedRateRun> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let skipped = 0;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  const total = Math.round(rate * seconds);
  const startedAt = performance.now();
  for (let index = 0; index < total; index += 1) {
    const due = startedAt + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    if (inFlight >= maxInFlight) {
      skipped += 1;
      continue;
    }
    inFlight += 1;
    const began = performance.now();
    const done: Promise<void> = call(index).then(
      () => {
        latencies.push(performance.now() - began);
      },
      (error: unknown) => {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      },
    );
    const tracked = done.finally(() => {
      inFlight -= 1;
      running.delete(tracked);
    });
    running.add(tracked);
  }
  await Promise.all(running);
  return {
    latencies,
    errors,
    firstError,
    skipped,
    seconds: (performance.now() - startedAt) / 1000,
  };
}
