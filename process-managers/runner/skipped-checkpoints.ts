import { preparedQuery } from '@engram/database';
import type { DataSource } from 'typeorm';

/**
 * How long a reactor partition's stored checkpoint may trail the batches it passed without a
 * reaction (none of its owners' events, no decision). Only a restart reads a reactor's checkpoint
 * (the API never waits for one), and it then passes those events again without reacting: so unlike a
 * projection, a reactor does not write at the head of the log at once. Writing there after every
 * batch made ~15 checkpoint statements per appended event, the worker's most frequent statement
 * (BENCHMARKS.md, round 6).
 */
export const REACTOR_SKIPPED_CHECKPOINT_MS = 1_000;

/**
 * The positions reactor partitions passed without a reaction, stored for all of them in one
 * statement at most every `everyMs` (one timer for a worker, not one per partition and batch). A
 * checkpoint only moves forward here: a partition's own write after a reaction, or another worker's
 * after a lease moved, is never undone.
 */
export class SkippedCheckpoints {
  private readonly pending = new Map<string, bigint>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly everyMs = REACTOR_SKIPPED_CHECKPOINT_MS,
  ) {}

  /** `name` passed everything up to `position`; stored within `everyMs`. */
  note(name: string, position: bigint): void {
    this.pending.set(name, position);
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs).unref();
  }

  /**
   * Stores what is pending now. A failure (the database down) is not thrown: the checkpoints stay
   * behind, and a restart passes those events again.
   */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const names = [...this.pending.keys()];
    const positions = [...this.pending.values()].map(String);
    this.pending.clear();
    await preparedQuery(
      this.dataSource.manager,
      `WITH written AS (
         UPDATE projection_checkpoints AS c SET position = v.position, updated_at = now()
           FROM unnest($1::text[], $2::bigint[]) AS v(name, position)
          WHERE c.name = v.name AND c.position < v.position
         RETURNING 1
       )
       SELECT set_config('synchronous_commit', 'off', true) AS synchronous_commit`,
      [names, positions],
    ).catch(() => undefined);
  }
}
