import type { Pool } from 'pg';
import type { AppendResult } from '../event-store.port';
import { appendBatch, type AppendRequest } from './append-batch';

type Pending = AppendRequest & {
  resolve: (result: AppendResult) => void;
  reject: (error: Error) => void;
};

/**
 * Concurrent appends queue here while a transaction is in flight; the next transaction takes all of
 * them at once (one call of the append function). Nothing waits on a timer: a lone append is written immediately, and under load one
 * commit (one fsync) serves many requests.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly pool: Pool,
    private readonly maxEventsPerTransaction = 2000,
  ) {}

  append(request: AppendRequest): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ ...request, resolve, reject });
      if (!this.flushing) void this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) await this.flush(this.takeBatch());
    } finally {
      this.flushing = false;
    }
  }

  private takeBatch(): Pending[] {
    let events = 0;
    let count = 0;
    while (count < this.queue.length) {
      events += this.queue[count]!.events.length;
      if (count > 0 && events > this.maxEventsPerTransaction) break;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await appendBatch(this.pool, batch);
      outcomes.forEach((outcome, index) => {
        const pending = batch[index]!;
        if (outcome.ok) pending.resolve(outcome.result);
        else pending.reject(outcome.error);
      });
    } catch (error) {
      if (batch.length > 1 && isRefusedData(error)) {
        // One request's data was refused by PostgreSQL: the others must not fail with it.
        for (const pending of batch) await this.flush([pending]);
        return;
      }
      for (const pending of batch) pending.reject(error as Error);
    }
  }
}

/** Data exceptions (22xxx) and integrity violations (23xxx) belong to a request, not to the connection. */
function isRefusedData(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}
