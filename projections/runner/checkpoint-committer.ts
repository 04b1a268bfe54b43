import { createPipelinePool } from '@engram/database';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import {
  advanceCheckpoint,
  advanceCheckpoints,
  type Advance,
  type CheckpointAdvance,
} from './checkpoint-advance';

type Pending = Readonly<{
  advance: CheckpointAdvance;
  resolve: (outcome: Advance) => void;
  reject: (error: unknown) => void;
}>;

/**
 * Group commit for the projection batches of one process: a batch's checkpoint move (and its
 * upsert) is sent at once while fewer than `maxInFlight` statements are running, else it waits and
 * goes with all the others that queued meanwhile, in one transaction sent in one round trip
 * (`advanceCheckpoints`: each batch's prepared statement, pipelined). At the head of the log every
 * runner of a worker writes a small batch after each append; one round trip instead of eleven is
 * what keeps a worker up with a thousand appends a second (round trips and socket writes were most
 * of its time). A group that fails is retried batch by batch, so that one projection's failure is
 * its own. Bounding the statements in flight matters as much: sent each at once (round 5 tried it), 80
 * runners' statements queued in the pool ahead of the process managers' reads, and a reaction's
 * end-to-end latency tripled with two workers (`test/e2e/policy-in-force.e2e.spec.ts`: 22 s against
 * 6.5 s).
 */
export class CheckpointCommitter {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  /** The groups' connections (one per group in flight), made at the first group. */
  private pipeline: Pool | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly maxInFlight = 2,
  ) {}

  /** Closes the groups' connections (the data source is its owner's to close). */
  async close(): Promise<void> {
    const pipeline = this.pipeline;
    this.pipeline = undefined;
    await pipeline?.end();
  }

  advance(advance: CheckpointAdvance): Promise<Advance> {
    return new Promise((resolve, reject) => {
      this.queue.push({ advance, resolve, reject });
      if (this.inFlight < this.maxInFlight) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.inFlight += 1;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0);
        if (group.length === 1) await this.sendAlone(group[0]!);
        else {
          this.pipeline ??= createPipelinePool(this.dataSource, this.maxInFlight);
          await advanceCheckpoints(
            this.pipeline,
            group.map((pending) => pending.advance),
          ).then(
            (outcomes) => group.forEach((pending, i) => pending.resolve(outcomes[i]!)),
            () => Promise.all(group.map((pending) => this.sendAlone(pending))),
          );
        }
      }
    } finally {
      this.inFlight -= 1;
    }
  }

  private async sendAlone(pending: Pending): Promise<void> {
    await advanceCheckpoint(this.dataSource.manager, pending.advance).then(
      (outcome) => pending.resolve(outcome),
      pending.reject,
    );
  }
}
