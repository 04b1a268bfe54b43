import { setTimeout as sleep } from 'node:timers/promises';
import { isTransientError } from '@engram/database';
import type { DecodedEvent, EventCodec, EventStore, RecordedEvent } from '@engram/event-store';
import type { DataSource, EntityManager } from 'typeorm';
import { abortedOrAfter } from './aborted-or-after';
import { foldBatch, writeBatch, type BatchWrites } from './apply-batch';
import {
  advanceCheckpoint,
  type Advance,
  type CheckpointAdvance,
  type SqlCondition,
} from './checkpoint-advance';
import type { CheckpointCommitter } from './checkpoint-committer';
import type { CommittedCheckpoints } from './committed-checkpoints';
import { ensureCheckpoint, readCheckpoint } from './checkpoints';
import { readOwnerEvents } from './owner-events';
import { agreePartitionCount } from './partition-count';
import { describeFailure, park, unpark, type ParkedEvent } from './parked-events';
import { ParkingLot, backoffMs, type Decision } from './parking-lot';
import { WHOLE, type Owner, type PartitionSlice } from './partitions';
import {
  USER_ERASED,
  isPerUser,
  typesFedTo,
  type AnyProjection,
  type OwnedRow,
} from './projection';
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
  /** Shared by the runners of one process: at most two statements in flight, the rest grouped. */
  committer?: CheckpointCommitter;
  /** Told each checkpoint this runner commits while it runs, for waits in this process. */
  committed?: CommittedCheckpoints;
  onError?: (projection: string, error: unknown) => void;
  /** Told each event this runner parks (after it was recorded). */
  onParked?: (parked: ParkedEvent) => void;
}>;

export type RunnerOptions = Readonly<{
  batchSize?: number;
  /**
   * Wait after a failed batch (transient failures), and before the first automatic try of a parked
   * event, doubled at each further try.
   */
  retryMs?: number;
  /**
   * Checked by each batch's first statement: false when this runner may no longer write (its worker
   * lost the partition's lease), and the batch is rolled back.
   */
  fence?: SqlCondition;
  /** The owners this runner applies: one partition of the projection (default: all of them). */
  slice?: PartitionSlice;
  /**
   * Tries of an event that fails for a reason of its own (the first, then automatic ones with
   * backoff, its owner held meanwhile) before it waits for an operator.
   */
  attemptsBeforeParking?: number;
}>;

/**
 * How long at most a partition leaves its stored checkpoint behind the batches it skipped (none of
 * its events in them) while more events are already buffered; at the head of the log it writes at
 * once. Waits in this process see the skipped position at once (CommittedCheckpoints).
 */
export const SKIPPED_CHECKPOINT_FLUSH_MS = 50;

export class PartitionLostError extends Error {
  override readonly name = 'PartitionLostError';
  constructor(projection: string) {
    super(`${projection}: this worker no longer holds the partition; the batch was not applied`);
  }
}

type Failure = Readonly<{ event: RecordedEvent; error: unknown }>;

/**
 * Keeps one partition of a projection up to date: follows the log from the partition's checkpoint and
 * applies the batch's events of its owners together with the new checkpoint in one transaction, so a
 * crash never loses or double-applies an event. When the checkpoint moved under us (a rebuild), the
 * runner starts again from the new checkpoint.
 *
 * A batch that fails for a transient reason (connection, serialization, timeout) is retried as long
 * as it takes. One that fails otherwise is applied again owner by owner at once: the event that
 * fails is parked with its error, that owner's later events wait behind it, and every other owner
 * goes on without delay. The parked event is tried again automatically a few times with backoff
 * (with the owner's events held since), then waits for an operator's retry or skip (an event).
 */
export class ProjectionRunner {
  private readonly handled: ReadonlySet<string>;
  private readonly lot: ParkingLot;
  private rows: RowCache<OwnedRow>;

  constructor(
    private readonly deps: RunnerDependencies,
    readonly projection: AnyProjection,
    private readonly options: RunnerOptions = {},
  ) {
    this.handled = typesFedTo(projection);
    this.lot = new ParkingLot(
      projection.name,
      options.slice ?? WHOLE,
      !isPerUser(projection),
      options.attemptsBeforeParking ?? 3,
    );
    this.rows = new RowCache<OwnedRow>(projection);
  }

  /** The checkpoint (and lease) name of this runner's partition. */
  get name(): string {
    return this.lot.partition;
  }

  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.withFeed(async (feed) => {
        await ensureCheckpoint(this.deps.dataSource.manager, this.name);
        let failures = 0;
        while (!signal.aborted) {
          try {
            await this.followFromCheckpoint(feed, signal, () => (failures = 0));
          } catch (error) {
            if (signal.aborted) return;
            failures += 1;
            this.deps.onError?.(this.name, error);
            const wait = backoffMs(this.retryMs, failures);
            await sleep(wait, undefined, { signal }).catch(() => undefined);
          }
        }
      });
    } finally {
      this.deps.committed?.stopped(this.name);
    }
  }

  /**
   * Applies what is in the store right now and returns (for CLI rebuilds and tests), once the
   * automatic tries of what it parked are spent or succeeded.
   */
  async catchUp(): Promise<bigint> {
    return this.withFeed(async (feed) => {
      const manager = this.deps.dataSource.manager;
      await ensureCheckpoint(manager, this.name);
      let checkpoint = await this.restart(manager);
      const head = await this.deps.store.headPosition();
      for (;;) {
        const next = await this.retryDue(checkpoint);
        checkpoint = next ?? (await this.restart(manager));
        if (next === undefined) continue;
        const events =
          checkpoint < head ? await feed.read(checkpoint, this.options.batchSize, this) : [];
        if (events.length > 0) {
          checkpoint = (await this.step(feed, events, checkpoint)) ?? (await this.restart(manager));
          continue;
        }
        const wait = this.lot.nextRetryIn(Date.now(), this.retryMs);
        if (wait === undefined) return checkpoint;
        await sleep(wait);
      }
    });
  }

  private async restart(manager: EntityManager): Promise<bigint> {
    this.rows = new RowCache<OwnedRow>(this.projection);
    await this.lot.load(manager);
    return readCheckpoint(manager, this.name);
  }

  /** The process's shared feed (this runner paced among its readers), or a feed of its own. */
  private async withFeed<T>(work: (feed: SharedEventFeed) => Promise<T>): Promise<T> {
    const shared = this.deps.feed;
    const feed = shared ?? new SharedEventFeed(this.deps.store, this.deps.codec);
    try {
      return await work(feed);
    } finally {
      if (shared) shared.release(this);
      else feed.close();
    }
  }

  private async followFromCheckpoint(
    feed: SharedEventFeed,
    signal: AbortSignal,
    onProgress: () => void,
  ): Promise<void> {
    let checkpoint = await this.restart(this.deps.dataSource.manager);
    // The stored checkpoint: behind `checkpoint` while batches with nothing of this partition were
    // skipped without a write (most batches, for a projection of rare events).
    let stored = checkpoint;
    let skippedSince: number | undefined;
    this.deps.committed?.started(this.name, checkpoint, (key) => this.rows.peek(key));
    while (!signal.aborted) {
      const retried = await this.retryDue(stored);
      if (retried === undefined) return;
      if (
        stored < checkpoint &&
        (!feed.hasEventsAfter(checkpoint) ||
          Date.now() - skippedSince! >= SKIPPED_CHECKPOINT_FLUSH_MS)
      ) {
        if (!(await this.advanceAlone(stored, checkpoint))) return;
        stored = checkpoint;
      }
      // Woken for the next automatic try of a parked event, if one is pending.
      const wait = this.lot.nextRetryIn(Date.now(), this.retryMs);
      const until = wait === undefined ? signal : abortedOrAfter(signal, wait);
      const batch = await feed.follow(checkpoint, until, this.options.batchSize, this);
      if (batch.length === 0) continue;
      if (!this.concerns(batch)) {
        checkpoint = batch.at(-1)!.globalPosition;
        skippedSince ??= Date.now();
        onProgress();
        this.deps.committed?.committed(this.name, checkpoint, false);
        continue;
      }
      // The batch's write moves the stored checkpoint past the skipped batches too.
      const next = await this.step(feed, batch, stored);
      if (next === undefined) return;
      const rowsChanged = batch.some((event) => event.globalPosition <= next && this.mine(event));
      checkpoint = stored = next;
      skippedSince = undefined;
      onProgress();
      this.deps.committed?.committed(this.name, checkpoint, rowsChanged);
    }
  }

  /**
   * The batch holds an event of this partition's owners the projection is fed (a held owner's too:
   * its retry reads the owner's events up to the stored checkpoint), or an operator's decision.
   */
  private concerns(batch: readonly RecordedEvent[]): boolean {
    return batch.some(
      (event) =>
        (this.handled.has(event.type) && this.lot.owns(event)) ||
        this.lot.decisionOf(event) !== undefined,
    );
  }

  /** The checkpoint moved over skipped batches, nothing else written; false when it had moved. */
  private async advanceAlone(from: bigint, to: bigint): Promise<boolean> {
    const outcome = this.deps.committer
      ? await this.deps.committer.advance(this.advance(from, to))
      : await advanceCheckpoint(this.deps.dataSource.manager, this.advance(from, to));
    if (outcome === 'fenced') throw new PartitionLostError(this.name);
    return outcome === 'advanced';
  }

  /**
   * Applies the batch (up to the first operator's decision meant for this partition, which is then
   * carried out) and returns the new checkpoint; undefined when the checkpoint had moved. Throws
   * while a failing batch has tries left.
   */
  private async step(
    feed: SharedEventFeed,
    batch: readonly RecordedEvent[],
    checkpoint: bigint,
  ): Promise<bigint | undefined> {
    const cut = batch.findIndex((event) => this.lot.decisionOf(event) !== undefined);
    const events = cut < 0 ? batch : batch.slice(0, cut + 1);
    let applied: boolean;
    try {
      applied = await this.applyWithCheckpoint(feed, events, checkpoint);
    } catch (error) {
      this.rows = new RowCache<OwnedRow>(this.projection);
      if (error instanceof PartitionLostError || isTransientError(error)) throw error;
      // An event of one owner fails: that owner is set aside, the others are applied now.
      applied = await this.isolate(feed, events, checkpoint);
    }
    if (!applied) return undefined;
    const last = events.at(-1)!.globalPosition;
    await this.releaseErased(events);
    const decision = cut < 0 ? undefined : this.lot.decisionOf(events.at(-1)!);
    if (decision && !(await this.carryOut(decision, last))) return undefined;
    return last;
  }

  /**
   * The automatic tries now due of what this partition parked: each owner's events from the parked
   * one up to the checkpoint. The checkpoint is returned, or undefined when it had moved.
   */
  private async retryDue(checkpoint: bigint): Promise<bigint | undefined> {
    for (const parked of this.lot.dueForRetry(Date.now(), this.retryMs)) {
      if (!(await this.resume(parked, checkpoint))) return undefined;
    }
    return checkpoint;
  }

  private get retryMs(): number {
    return this.options.retryMs ?? 1000;
  }

  /** The events of this partition's owners the projection is fed; a parked owner's wait, but erasure. */
  private mine(event: RecordedEvent): boolean {
    if (!this.handled.has(event.type) || !this.lot.owns(event)) return false;
    return event.type === USER_ERASED || !this.lot.holds(event);
  }

  /**
   * Applies a batch and moves the checkpoint past it, atomically. False when the checkpoint was not
   * at `expectedCheckpoint` (nothing applied). The rows are read (the cache's, or the table's) before
   * the checkpoint is locked: the statement that advances it proves that nobody wrote since.
   */
  private async applyWithCheckpoint(
    feed: SharedEventFeed,
    events: readonly RecordedEvent[],
    expectedCheckpoint: bigint,
  ): Promise<boolean> {
    const relevant = events.filter((event) => this.mine(event));
    const decoded = await Promise.all(relevant.map((event) => feed.decode(event)));
    const table = sqlRowTable(this.deps.dataSource.manager, this.projection);
    const rows = this.rows;
    const writes = await foldBatch(rows.reading(table), this.projection, decoded);
    const last = events.at(-1)!.globalPosition;
    const outcome = await this.write(table, writes, expectedCheckpoint, last);
    if (outcome === 'fenced') throw new PartitionLostError(this.name);
    if (outcome === 'advanced') rows.commit(writes);
    else this.rows = new RowCache<OwnedRow>(this.projection);
    return outcome === 'advanced';
  }

  private async write(
    table: SqlRowTable<OwnedRow>,
    writes: BatchWrites<OwnedRow>,
    from: bigint,
    to: bigint,
  ): Promise<Advance> {
    const advance = this.advance(from, to);
    if (writes.ownerDeletes.length === 0 && writes.deletes.length === 0) {
      // Most batches only upsert: rows and checkpoint in one statement, no transaction to open.
      const upsert = writes.upserts.length === 0 ? undefined : table.guardedUpsert(writes.upserts);
      if (this.deps.committer) return this.deps.committer.advance({ ...advance, upsert });
      return advanceCheckpoint(this.deps.dataSource.manager, { ...advance, upsert });
    }
    return this.deps.dataSource.transaction(async (manager) => {
      const outcome = await advanceCheckpoint(manager, advance);
      if (outcome === 'advanced') await writeBatch(sqlRowTable(manager, this.projection), writes);
      return outcome;
    });
  }

  private advance(from: bigint, to: bigint): CheckpointAdvance {
    return { name: this.name, from, to, fence: this.options.fence };
  }

  /**
   * The batch kept failing: applies it owner by owner, in one transaction with the checkpoint, and
   * parks the first event of each owner that fails on its own (with that owner's later events).
   */
  private async isolate(
    feed: SharedEventFeed,
    events: readonly RecordedEvent[],
    checkpoint: bigint,
  ): Promise<boolean> {
    const byOwner = new Map<string, { owner: Owner; events: RecordedEvent[] }>();
    for (const event of events.filter((candidate) => this.mine(candidate))) {
      const owner = this.lot.ownerOf(event);
      const key = `${owner.workspaceId}/${owner.userId}`;
      const group = byOwner.get(key) ?? { owner, events: [] };
      group.events.push(event);
      byOwner.set(key, group);
    }
    const parked = await this.inTransaction(checkpoint, events.at(-1)!.globalPosition, (manager) =>
      this.parkFailures(manager, [...byOwner.values()], (event) => feed.decode(event)),
    );
    if (parked === undefined) return false;
    this.rememberParked(parked);
    return true;
  }

  /** Held back now; told (logged) once its automatic tries are spent. */
  private rememberParked(parked: readonly ParkedEvent[]): void {
    for (const event of parked) {
      this.lot.remember(event);
      if (this.lot.isFinal(event)) this.deps.onParked?.(event);
    }
  }

  /** Each owner's events applied together, or one by one to find and park the one that fails. */
  private async parkFailures(
    manager: EntityManager,
    groups: readonly { owner: Owner; events: readonly RecordedEvent[] }[],
    decode: (event: RecordedEvent) => Promise<DecodedEvent>,
  ): Promise<ParkedEvent[]> {
    const parked: ParkedEvent[] = [];
    for (const { owner, events } of groups) {
      if ((await this.tryApplying(manager, events, decode)) === undefined) continue;
      for (const event of events) {
        const failure = await this.tryApplying(manager, [event], decode);
        if (failure === undefined) continue;
        parked.push(await this.park(manager, owner, failure));
        break;
      }
    }
    return parked;
  }

  /** Applies `events` inside a savepoint: undefined when applied, the failure when rolled back. */
  private async tryApplying(
    manager: EntityManager,
    events: readonly RecordedEvent[],
    decode: (event: RecordedEvent) => Promise<DecodedEvent>,
  ): Promise<Failure | undefined> {
    await manager.query('SAVEPOINT engram_owner');
    try {
      const decoded = await Promise.all(events.map(decode));
      const table = sqlRowTable(manager, this.projection);
      await writeBatch(table, await foldBatch(table, this.projection, decoded));
      await manager.query('RELEASE SAVEPOINT engram_owner');
      return undefined;
    } catch (error) {
      if (isTransientError(error)) throw error;
      await manager.query('ROLLBACK TO SAVEPOINT engram_owner');
      // Tried alone, the event is the culprit; tried with others, the caller tries them one by one.
      return { event: events[0]!, error };
    }
  }

  private park(manager: EntityManager, owner: Owner, failure: Failure): Promise<ParkedEvent> {
    return park(manager, {
      consumer: this.lot.consumer,
      partition: this.name,
      ...owner,
      position: failure.event.globalPosition,
      eventId: failure.event.eventId,
      eventType: failure.event.type,
      error: describeFailure(failure.error),
      attempts: 1,
    });
  }

  /** An operator's retry or skip, met at `through`, for the event parked now (else nothing to do). */
  private async carryOut(decision: Decision, through: bigint): Promise<boolean> {
    const parked = this.lot.parkedFor(decision.owner);
    if (!parked || parked.eventId !== decision.ref.eventId) return true;
    const skip = decision.kind === 'ParkedEventSkipped' ? parked.eventId : undefined;
    return this.resume(parked, through, skip);
  }

  /**
   * Applies again the owner's events from the parked one up to `through` (less a skipped one) in one
   * transaction with the checkpoint; one that still fails is parked again (one more try counted).
   * False when the checkpoint had moved.
   */
  private async resume(parked: ParkedEvent, through: bigint, skip?: string): Promise<boolean> {
    const owner = { workspaceId: parked.workspaceId, userId: parked.userId };
    const events = (
      await readOwnerEvents(
        this.deps.store,
        owner,
        parked.position - 1n,
        through,
        this.lot.resumeThrough(parked),
      )
    ).filter((event) => this.handled.has(event.type) && event.eventId !== skip);
    const decode = (event: RecordedEvent) => this.deps.codec.decode(event);
    const outcome = await this.inTransaction(through, through, async (manager) => {
      const parkedAgain = await this.parkFailures(manager, [{ owner, events }], decode);
      if (parkedAgain.length === 0) await unpark(manager, this.lot.consumer, owner);
      return parkedAgain;
    });
    this.rows = new RowCache<OwnedRow>(this.projection);
    if (outcome === undefined) return false;
    this.lot.forget(owner);
    this.rememberParked(outcome);
    return true;
  }

  /** Erasure removes the owner's rows, so nothing of theirs stays parked. */
  private async releaseErased(events: readonly RecordedEvent[]): Promise<void> {
    if (this.lot.size === 0) return;
    for (const event of events) {
      if (event.type !== USER_ERASED || !this.lot.owns(event) || !this.lot.holds(event)) continue;
      const owner = this.lot.ownerOf(event);
      await unpark(this.deps.dataSource.manager, this.lot.consumer, owner);
      this.lot.forget(owner);
    }
  }

  /** Work done with the checkpoint moved from `from` to `to` in one transaction; undefined if it had moved. */
  private async inTransaction<T>(
    from: bigint,
    to: bigint,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T | undefined> {
    return this.deps.dataSource.transaction(async (manager) => {
      const outcome = await advanceCheckpoint(manager, this.advance(from, to));
      if (outcome === 'fenced') throw new PartitionLostError(this.name);
      if (outcome === 'moved') return undefined;
      return work(manager);
    });
  }
}

/**
 * Applies what is in the store right now with one runner per partition of the database's count (or
 * `count` when none is recorded yet, which records it): for the CLI's rebuild and tests.
 */
export async function catchUpAllPartitions(
  deps: RunnerDependencies,
  projection: AnyProjection,
  options: RunnerOptions & { count?: number } = {},
): Promise<bigint> {
  const count = await agreePartitionCount(deps.dataSource.manager, options.count ?? 1);
  const positions = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      new ProjectionRunner(deps, projection, { ...options, slice: { index, count } }).catchUp(),
    ),
  );
  return positions.reduce((lowest, next) => (next < lowest ? next : lowest));
}
