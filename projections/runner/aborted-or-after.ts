/**
 * Aborts when `signal` does or once `ms` have passed. Not `AbortSignal.any([signal,
 * AbortSignal.timeout(ms)])`: Node 20's `any` holds its sources weakly and nothing else holds a
 * timeout signal, so a garbage collection before it fires and the combined signal never aborts: a
 * parked event's automatic try waited for the next event, and a deferral tried in BENCHMARKS.md
 * round 25 stalled a replay. Here the timer holds the controller it aborts.
 */
export function abortedOrAfter(signal: AbortSignal, ms: number): AbortSignal {
  const after = new AbortController();
  setTimeout(() => after.abort(new DOMException('The wait timed out', 'TimeoutError')), ms).unref();
  return AbortSignal.any([signal, after.signal]);
}
