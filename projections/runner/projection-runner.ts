import { setTimeout as sleep } from 'node:timers/promises';
import type { EventCodec, EventStore, RecordedEvent } from '@engram/event-store';
import type { DataSource } from 'typeorm';
import { foldBatch, writeBatch, type BatchWrites } from './apply-batch';
import {
  advanceCheckpoints,
  type Advance,
  type CheckpointAdvance,
  type SqlCondition,
} from './checkpoint-advance';
import type { CheckpointCommitter } from './checkpoint-committer';
import type { CommittedCheckpoints } from './committed-checkpoints';
import { ensureCheckpoint, readCheckpoint } from './checkpoints';
import { typesFedTo, type AnyProjection, type OwnedRow } from './projection';
import { RowCache } from './row-cache';
import { sqlRowTable, type SqlRowTable } from './row-table';
import { SharedEventFeed } from './shared-event-feed';

export type RunnerDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  /** Connected as the projector role. */
  dataSource: DataSource;
  /** Shared by the runners of one process (one read and one decode per event); else the runner's own. */
  feed?: SharedEventFeed;
  /** Shared by the runners of one process: their batches' statements grouped when they meet. */
  committer?: CheckpointCommitter;
  /** Told each checkpoint this runner commits while it runs, for waits in this process. */
  committed?: CommittedCheckpoints;
  onError?: (projection: string, error: unknown) => void;
}>;

export type RunnerOptions = Readonly<{
  batchSize?: number;
  retryMs?: number;
  /**
   * Checked by each batch's first statement: false when this runner may no longer write (its worker
   * lost the partition's lease), and the batch is rolled back.
   */
  fence?: SqlCondition;
}>;

export class PartitionLostError extends Error {
  override readonly name = 'PartitionLostError';
  constructor(projection: string) {
    super(`${projection}: this worker no longer holds the partition; the batch was not applied`);
  }
}

/**
 * Keeps one projection up to date: follows the log from the projection's checkpoint and applies each
 * batch of events together with the new checkpoint in one transaction, so a crash never loses or
 * double-applies an event. The checkpoint row is locked per batch; when it moved under us (a rebuild),
 * the runner starts again from the new checkpoint.
 */
export class ProjectionRunner {
  private readonly handled: ReadonlySet<string>;

  constructor(
    private readonly deps: RunnerDependencies,
    readonly projection: AnyProjection,
    private readonly options: RunnerOptions = {},
  ) {
    this.handled = typesFedTo(projection);
  }

  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.withFeed(async (feed) => {
        await ensureCheckpoint(this.deps.dataSource.manager, this.projection.name);
        while (!signal.aborted) {
          try {
            await this.followFromCheckpoint(feed, signal);
          } catch (error) {
            if (signal.aborted) return;
            this.deps.onError?.(this.projection.name, error);
            await sleep(this.options.retryMs ?? 1000, undefined, { signal }).catch(() => undefined);
          }
        }
      });
    } finally {
      this.deps.committed?.stopped(this.projection.name);
    }
  }

  /** Applies what is in the store right now and returns (for CLI rebuilds and tests). */
  async catchUp(): Promise<bigint> {
    return this.withFeed(async (feed) => {
      const manager = this.deps.dataSource.manager;
      await ensureCheckpoint(manager, this.projection.name);
      let checkpoint = await readCheckpoint(manager, this.projection.name);
      let rows = new RowCache<OwnedRow>(this.projection);
      const head = await this.deps.store.headPosition();
      while (checkpoint < head) {
        const events = await feed.read(checkpoint, this.options.batchSize);
        if (events.length === 0) break;
        if (!(await this.applyWithCheckpoint(feed, rows, events, checkpoint))) {
          checkpoint = await readCheckpoint(manager, this.projection.name);
          rows = new RowCache<OwnedRow>(this.projection);
          continue;
        }
        checkpoint = events[events.length - 1]!.globalPosition;
      }
      return checkpoint;
    });
  }

  private async withFeed<T>(work: (feed: SharedEventFeed) => Promise<T>): Promise<T> {
    if (this.deps.feed) return work(this.deps.feed);
    const feed = new SharedEventFeed(this.deps.store, this.deps.codec);
    try {
      return await work(feed);
    } finally {
      feed.close();
    }
  }

  private async followFromCheckpoint(feed: SharedEventFeed, signal: AbortSignal): Promise<void> {
    let checkpoint = await readCheckpoint(this.deps.dataSource.manager, this.projection.name);
    this.deps.committed?.started(this.projection.name, checkpoint);
    const rows = new RowCache<OwnedRow>(this.projection);
    while (!signal.aborted) {
      const batch = await feed.follow(checkpoint, signal, this.options.batchSize);
      if (batch.length === 0) continue;
      if (!(await this.applyWithCheckpoint(feed, rows, batch, checkpoint))) return;
      checkpoint = batch[batch.length - 1]!.globalPosition;
      const rowsChanged = batch.some((event) => this.handled.has(event.type));
      this.deps.committed?.committed(this.projection.name, checkpoint, rowsChanged);
    }
  }

  /**
   * Applies a batch and moves the checkpoint past it, atomically. False when the checkpoint was not
   * at `expectedCheckpoint` (nothing applied); the caller then drops `rows`, as it does when this
   * throws. The rows are read (the cache's, or the table's) before the checkpoint is locked: the
   * statement that advances it proves that nobody wrote since.
   */
  private async applyWithCheckpoint(
    feed: SharedEventFeed,
    rows: RowCache<OwnedRow>,
    events: readonly RecordedEvent[],
    expectedCheckpoint: bigint,
  ): Promise<boolean> {
    const relevant = events.filter((event) => this.handled.has(event.type));
    const decoded = await Promise.all(relevant.map((event) => feed.decode(event)));
    const table = sqlRowTable(this.deps.dataSource.manager, this.projection);
    const writes = await foldBatch(rows.reading(table), this.projection, decoded);
    const last = events.at(-1)!.globalPosition;
    const outcome = await this.write(table, writes, expectedCheckpoint, last);
    if (outcome === 'fenced') throw new PartitionLostError(this.projection.name);
    if (outcome === 'advanced') rows.commit(writes);
    return outcome === 'advanced';
  }

  private async write(
    table: SqlRowTable<OwnedRow>,
    writes: BatchWrites<OwnedRow>,
    from: bigint,
    to: bigint,
  ): Promise<Advance> {
    const advance: CheckpointAdvance = {
      name: this.projection.name,
      from,
      to,
      fence: this.options.fence,
    };
    if (writes.ownerDeletes.length === 0 && writes.deletes.length === 0) {
      // Most batches only upsert: rows and checkpoint in one statement, no transaction to open.
      const { upserts } = writes;
      const write: CheckpointAdvance['write'] =
        upserts.length === 0
          ? undefined
          : (first, guard) => table.guardedUpsert(upserts, first, guard);
      if (this.deps.committer) return this.deps.committer.advance({ ...advance, write });
      const [outcome] = await advanceCheckpoints(this.deps.dataSource.manager, [
        { ...advance, write },
      ]);
      return outcome!;
    }
    return this.deps.dataSource.transaction(async (manager) => {
      const [outcome] = await advanceCheckpoints(manager, [advance]);
      if (outcome === 'advanced') await writeBatch(sqlRowTable(manager, this.projection), writes);
      return outcome!;
    });
  }
}
