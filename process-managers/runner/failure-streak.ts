import { backoffMs } from '@engram/projections';

/**
 * A process-manager partition's transient failures in a row (the LLM or the database down, read
 * models not there yet), for its backoff: each one doubles the wait before the next try, up to
 * `maxMs`, and the streak ends once the partition has passed the event that failed. Counted for the
 * worker's whole life instead, a few failures on one day left every later one waiting `maxMs`: at
 * thirty seconds a try, a partition falls thousands of events behind while nothing is wrong.
 */
export class FailureStreak {
  private count = 0;
  /** The event that failed last; undefined for a failure outside a reaction (any progress ends it). */
  private at: bigint | undefined;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** One more failure, of the event at `position` if it was a reaction's: the wait before the next try. */
  failed(position?: bigint): number {
    this.count += 1;
    this.at = position;
    return Math.min(backoffMs(this.baseMs, this.count), this.maxMs);
  }

  /** Every event up to `position` is done: a streak whose failure lies there is over. */
  passed(position: bigint): void {
    if (this.count > 0 && (this.at === undefined || position >= this.at)) {
      this.count = 0;
      this.at = undefined;
    }
  }

  /** Failures in the current streak. */
  get length(): number {
    return this.count;
  }
}
