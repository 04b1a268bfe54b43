import { isTransientError } from '@engram/database';
import { StreamDeletedError } from '@engram/event-store';
import { RetryLaterError } from './runner/reactor';

/**
 * One pass of a scheduled job over its work list: an item that fails for a reason of its own does
 * not stop the others (one user's bad data never starves the rest); the failures are reported
 * together once every other item is done, and the item is tried again at the next pass. A transient
 * failure (database or LLM unavailable) ends the pass at once: the others would fail the same way.
 * An item whose owner was erased meanwhile (its write refused as deleted) is done: there is nothing
 * left to write for them.
 */
export async function eachApart<T>(
  items: readonly T[],
  work: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const failures: unknown[] = [];
  for (const item of items) {
    if (signal?.aborted) break;
    try {
      await work(item);
    } catch (error) {
      if (error instanceof RetryLaterError || isTransientError(error)) throw error;
      // The item's owner was erased meanwhile: nothing of theirs is to be written any more.
      if (error instanceof StreamDeletedError) continue;
      failures.push(error);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(
      failures,
      `${failures.length} of ${items.length} items failed (the others were done): ` +
        failures
          .map((error) => (error instanceof Error ? error.message : String(error)))
          .join('; '),
    );
  }
}
