import type { AllStreamResolvedEvent, AllStreamSubscription } from '@eventstore/db-client';
import { toStoreError } from './client-errors';

const ABORTED = Symbol('aborted');

function ignore(): void {}

/**
 * The subscription's events until it ends, fails or the signal aborts. The signal closes the
 * server stream at once, even while the consumer holds an event and does not ask for the next one
 * (a generator suspended at `yield` runs its `finally` only when resumed); ending early closes it too.
 */
export async function* untilAborted(
  subscription: AllStreamSubscription,
  signal: AbortSignal | undefined,
): AsyncGenerator<AllStreamResolvedEvent> {
  let closing: Promise<void> | undefined;
  const close = () => {
    // Nobody reads the stream any more: a late error must not become an uncaught exception.
    subscription.on('error', ignore);
    // Unsubscribing fails if the subscription never connected; the original error matters more.
    closing ??= subscription.unsubscribe().catch(ignore);
    return closing;
  };
  let onAbort: () => void = ignore;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => {
      void close();
      resolve(ABORTED);
    };
  });
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const iterator = subscription[Symbol.asyncIterator]();
  try {
    while (signal?.aborted !== true) {
      const next = iterator.next();
      next.catch(ignore);
      const result = await Promise.race([next, aborted]).catch((error: unknown) => {
        throw toStoreError(error);
      });
      if (result === ABORTED || result.done === true) return;
      yield result.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await close();
  }
}
