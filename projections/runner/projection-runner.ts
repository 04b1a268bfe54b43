import { setTimeout as sleep } from 'node:timers/promises';
import { batched, type EventCodec, type EventStore, type RecordedEvent } from '@engram/event-store';
import type { DataSource, EntityManager } from 'typeorm';
import { applyBatch } from './apply-batch';
import { ensureCheckpoint, lockCheckpoint, readCheckpoint, writeCheckpoint } from './checkpoints';
import { typesFedTo, type AnyProjection } from './projection';

export type RunnerDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  /** Connected as the projector role. */
  dataSource: DataSource;
  onError?: (projection: string, error: unknown) => void;
}>;

export type RunnerOptions = Readonly<{
  batchSize?: number;
  maxWaitMs?: number;
  retryMs?: number;
  /**
   * Checked inside each batch's transaction: false when this runner may no longer write (its worker
   * lost the partition's lease), and the batch is rolled back.
   */
  mayWrite?: (manager: EntityManager) => Promise<boolean>;
}>;

export class PartitionLostError extends Error {
  override readonly name = 'PartitionLostError';
  constructor(projection: string) {
    super(`${projection}: this worker no longer holds the partition; the batch was not applied`);
  }
}

/**
 * Keeps one projection up to date: follows the store from the projection's checkpoint and applies each
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
    await ensureCheckpoint(this.deps.dataSource.manager, this.projection.name);
    while (!signal.aborted) {
      try {
        await this.followFromCheckpoint(signal);
      } catch (error) {
        if (signal.aborted) return;
        this.deps.onError?.(this.projection.name, error);
        await sleep(this.options.retryMs ?? 1000, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /** Applies what is in the store right now and returns (for CLI rebuilds and tests). */
  async catchUp(): Promise<bigint> {
    const manager = this.deps.dataSource.manager;
    await ensureCheckpoint(manager, this.projection.name);
    let checkpoint = await readCheckpoint(manager, this.projection.name);
    const head = await this.deps.store.headPosition();
    while (checkpoint < head) {
      const events = await this.deps.store.readAll({
        after: checkpoint,
        maxCount: this.options.batchSize ?? 2000,
      });
      if (events.length === 0) break;
      if (!(await this.applyInTransaction(events, checkpoint))) {
        checkpoint = await readCheckpoint(manager, this.projection.name);
        continue;
      }
      checkpoint = events[events.length - 1]!.globalPosition;
    }
    return checkpoint;
  }

  private async followFromCheckpoint(signal: AbortSignal): Promise<void> {
    let checkpoint = await readCheckpoint(this.deps.dataSource.manager, this.projection.name);
    // Ends the subscription when the runner stops, or when this method returns (checkpoint moved).
    const local = new AbortController();
    try {
      const events = this.deps.store.subscribeToAll({
        after: checkpoint,
        signal: AbortSignal.any([signal, local.signal]),
      });
      for await (const batch of batched(
        events,
        this.options.batchSize ?? 2000,
        this.options.maxWaitMs ?? 5,
      )) {
        if (batch.length === 0) continue;
        if (!(await this.applyInTransaction(batch, checkpoint))) return;
        checkpoint = batch[batch.length - 1]!.globalPosition;
      }
    } finally {
      local.abort();
    }
  }

  private async applyInTransaction(
    events: readonly RecordedEvent[],
    expectedCheckpoint: bigint,
  ): Promise<boolean> {
    const relevant = events.filter((event) => this.handled.has(event.type));
    const decoded = await Promise.all(relevant.map((event) => this.deps.codec.decode(event)));
    return this.deps.dataSource.transaction(async (manager) => {
      const current = await lockCheckpoint(manager, this.projection.name);
      if (current !== expectedCheckpoint) return false;
      if (this.options.mayWrite && !(await this.options.mayWrite(manager))) {
        throw new PartitionLostError(this.projection.name);
      }
      await applyBatch(manager, this.projection, decoded);
      await writeCheckpoint(
        manager,
        this.projection.name,
        events[events.length - 1]!.globalPosition,
      );
      return true;
    });
  }
}
