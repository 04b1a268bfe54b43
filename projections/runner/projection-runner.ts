import { setTimeout as sleep } from 'node:timers/promises';
import type { EventCodec, EventStore, RecordedEvent } from '@engram/event-store';
import type { DataSource, EntityManager } from 'typeorm';
import { applyBatch } from './apply-batch';
import {
  advanceCheckpoint,
  ensureCheckpoint,
  readCheckpoint,
  type SqlCondition,
} from './checkpoints';
import { typesFedTo, type AnyProjection } from './projection';
import { SharedEventFeed } from './shared-event-feed';

export type RunnerDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  /** Connected as the projector role. */
  dataSource: DataSource;
  /** Shared by the runners of one process (one read and one decode per event); else the runner's own. */
  feed?: SharedEventFeed;
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
  }

  /** Applies what is in the store right now and returns (for CLI rebuilds and tests). */
  async catchUp(): Promise<bigint> {
    return this.withFeed(async (feed) => {
      const manager = this.deps.dataSource.manager;
      await ensureCheckpoint(manager, this.projection.name);
      let checkpoint = await readCheckpoint(manager, this.projection.name);
      const head = await this.deps.store.headPosition();
      while (checkpoint < head) {
        const events = await feed.read(checkpoint, this.options.batchSize);
        if (events.length === 0) break;
        if (!(await this.applyInTransaction(feed, events, checkpoint))) {
          checkpoint = await readCheckpoint(manager, this.projection.name);
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
    while (!signal.aborted) {
      const batch = await feed.follow(checkpoint, signal, this.options.batchSize);
      if (batch.length === 0) continue;
      if (!(await this.applyInTransaction(feed, batch, checkpoint))) return;
      checkpoint = batch[batch.length - 1]!.globalPosition;
    }
  }

  /** False when the checkpoint was not at `expectedCheckpoint` (nothing applied). */
  private async applyInTransaction(
    feed: SharedEventFeed,
    events: readonly RecordedEvent[],
    expectedCheckpoint: bigint,
  ): Promise<boolean> {
    const relevant = events.filter((event) => this.handled.has(event.type));
    const decoded = await Promise.all(relevant.map((event) => feed.decode(event)));
    const name = this.projection.name;
    const last = events[events.length - 1]!.globalPosition;
    const advance = (manager: EntityManager) =>
      advanceCheckpoint(manager, name, expectedCheckpoint, last, this.options.fence);
    // Without rows to write, moving the checkpoint is one statement: no transaction to open.
    const outcome =
      decoded.length === 0
        ? await advance(this.deps.dataSource.manager)
        : await this.deps.dataSource.transaction(async (manager) => {
            const result = await advance(manager);
            if (result === 'advanced') await applyBatch(manager, this.projection, decoded);
            return result;
          });
    if (outcome === 'fenced') throw new PartitionLostError(name);
    return outcome === 'advanced';
  }
}
