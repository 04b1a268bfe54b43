/**
 * Groups an async iterable into arrays: a batch is emitted when it holds `maxSize` items or when
 * no further item arrives within `maxWaitMs`. Used by projection runners to apply a batch per transaction.
 */
export async function* batched<T>(
  source: AsyncIterable<T>,
  maxSize: number,
  maxWaitMs: number,
): AsyncIterable<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined;
  let batch: T[] = [];
  try {
    while (true) {
      pending ??= iterator.next();
      const next =
        batch.length === 0
          ? await pending
          : await Promise.race([pending, delay(maxWaitMs).then(() => undefined)]);
      if (next === undefined) {
        yield batch;
        batch = [];
        continue;
      }
      pending = undefined;
      if (next.done) break;
      batch.push(next.value);
      if (batch.length >= maxSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    // Not awaited: while a next() is pending (a subscription waiting for appends), the source's return()
    // only settles once that next() does, i.e. once the caller has aborted the subscription.
    void iterator.return?.()?.catch(() => undefined);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
