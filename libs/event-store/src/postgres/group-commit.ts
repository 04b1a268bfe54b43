import type { Pool } from 'pg';
import type { AppendResult } from '../event-store.port';
import { appendBatch, type AppendRequest } from './append-batch';

type Pending = AppendRequest & {
  resolve: (result: AppendResult) => void;
  reject: (error: Error) => void;
};

/**
 * Concurrent appends queue here while a transaction is in flight; the next transaction takes all of
 * them at once. Nothing waits on a timer: a lone append is written immediately, and under load one
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
    let client;
    try {
      client = await this.pool.connect();
    } catch (error) {
      for (const pending of batch) pending.reject(error as Error);
      return;
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const outcomes = await appendBatch(client, batch);
      await client.query('COMMIT');
      outcomes.forEach((outcome, index) => {
        const pending = batch[index]!;
        if (outcome.ok) pending.resolve(outcome.result);
        else pending.reject(outcome.error);
      });
    } catch (error) {
      broken = error as Error;
      await client.query('ROLLBACK').catch(() => undefined);
      for (const pending of batch) pending.reject(broken);
    } finally {
      client.release(broken);
    }
  }
}
