import { setTimeout as sleep } from 'node:timers/promises';
import { isTransientError } from '@engram/database';
import {
  StreamDeletedError,
  batched,
  type DecodedEvent,
  type EventCodec,
  type EventStore,
  type RecordedEvent,
} from '@engram/event-store';
import {
  ParkingLot,
  USER_ERASED,
  WHOLE,
  abortedOrAfter,
  describeFailure,
  ensureCheckpoint,
  ownerKey,
  park,
  readCheckpoint,
  readOwnerEvents,
  unpark,
  writeCheckpoint,
  type Decision,
  type ParkedEvent,
  type PartitionSlice,
  type SharedEventFeed,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { RetryLaterError, type AnyReactor } from './reactor';
import type { ProjectionsFirst } from './projections-first';
import { FailureStreak } from './failure-streak';
import { ReactionWindow, type Reacting } from './reaction-window';
import { SkippedCheckpoints } from './skipped-checkpoints';

export type ReactorRunnerDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  /** Projector-role data source: checkpoints and read models. */
  dataSource: DataSource;
  /** The worker's feed, shared with its projection runners (one read and one decode per event). */
  feed?: SharedEventFeed;
  onError?: (reactor: string, error: unknown) => void;
  /** Told each event this runner parks. */
  onParked?: (parked: ParkedEvent) => void;
  /** Told, once per reaction, of one under way for longer than `slowReactionMs` (the checkpoint waits for it). */
  onSlowReaction?: (reactor: string, slow: SlowReaction) => void;
  /** Where the positions of batches passed without a reaction are stored (the worker's, shared). */
  skipped?: SkippedCheckpoints;
  /** The turn of the worker's reactions: after its projections (one shared by its reactors). */
  projectionsFirst?: ProjectionsFirst;
}>;

export type ReactorRunnerOptions = Readonly<{
  retryMs?: number;
  maxRetryMs?: number;
  /** The owners this runner reacts for: one partition of the process manager (default: all). */
  slice?: PartitionSlice;
  /**
   * Tries of a reaction that fails for a reason of its own (the first, then automatic ones with
   * backoff, its owner held meanwhile) before it waits for an operator.
   */
  attemptsBeforeParking?: number;
  /**
   * Owners whose events are reacted to at once, each owner's in order (default 1): a number, or asked
   * each time a line would start (`CatchUpLimit`).
   */
  ownersInFlight?: number | (() => number);
  /** A reaction under way longer than this is told to `onSlowReaction` (default SLOW_REACTION_MS). */
  slowReactionMs?: number;
}>;

/** A reaction that has run for `ms`, and the events its partition holds open meanwhile. */
export type SlowReaction = Reacting & Readonly<{ ms: number; open: number }>;

const BATCH_SIZE = 200;

/**
 * Longer than any reaction should take: the waits of a reaction are bounded (10 s for the read models),
 * and an LLM call with its retries takes a minute at most (3 tries of 20 s). A reaction past it holds
 * its partition's checkpoint and, past 1,000 open events, the partition: an operator must hear of it.
 */
export const SLOW_REACTION_MS = 120_000;

/**
 * Owners a partition reacts for at once in a worker, unless configured (ENGRAM_REACTIONS_IN_FLIGHT).
 * With a remote LLM a reaction mostly waits for the model (0.5-3 s): one at a time, a partition
 * extracts for one or two messages a second. Offline, a reaction is work on this machine (mostly the
 * projection of the events it appends, here and in PostgreSQL). In a worker that runs the projections
 * too, more at once take the cores from them in their own thread, and the owners' visibility lag
 * grows (BENCHMARKS rounds 21, 29); in one that runs only the process managers, more at once batch
 * the reactions' appends and what they cause: about a quarter less work per message, the owners'
 * lag not told apart (round 29).
 */
export function defaultReactionsInFlight(
  llm: 'openai' | 'offline',
  projectionsHere: boolean,
): number {
  return llm === 'openai' || !projectionsHere ? 8 : 1;
}

/** Failures that say nothing about the event: tried again as long as it takes, never parked. */
function isTransient(error: unknown): boolean {
  return error instanceof RetryLaterError || isTransientError(error);
}

/**
 * Feeds one partition of a process manager the events it handles, in order, from its checkpoint
 * (`reactor:<name>`, one per partition). A reaction that fails for a transient reason (the LLM or the
 * database down) is tried again with backoff before any later event, so nothing is skipped while a
 * service is down. One that fails for a reason of its own is parked at once: that owner's later
 * events wait behind it while every other owner goes on; it is tried again automatically a few times
 * with backoff, then waits for an operator's retry or skip (an event). In a worker the events come from its shared feed, read and decoded
 * once for its projection runners and its reactors.
 */
export class ReactorRunner {
  private readonly handled: ReadonlySet<string>;
  private readonly lot: ParkingLot;
  private readonly skipped: SkippedCheckpoints;
  /** The backoff of `run`: transient failures in a row, over once the failed event is passed. */
  private readonly streak: FailureStreak;
  /** The position of the reaction whose failure `follow` is throwing. */
  private failedAt: bigint | undefined;

  constructor(
    private readonly deps: ReactorRunnerDependencies,
    readonly reactor: AnyReactor,
    private readonly options: ReactorRunnerOptions = {},
  ) {
    this.handled = new Set(reactor.handles);
    this.skipped = deps.skipped ?? new SkippedCheckpoints(deps.dataSource);
    this.streak = new FailureStreak(this.retryMs, options.maxRetryMs ?? 30_000);
    this.lot = new ParkingLot(
      `reactor:${reactor.name}`,
      options.slice ?? WHOLE,
      false,
      options.attemptsBeforeParking ?? 5,
    );
  }

  /** The checkpoint (and lease) name of this runner's partition. */
  get name(): string {
    return this.lot.partition;
  }

  async run(signal: AbortSignal): Promise<void> {
    await ensureCheckpoint(this.deps.dataSource.manager, this.name);
    while (!signal.aborted) {
      try {
        await this.follow(signal);
      } catch (error) {
        if (signal.aborted) return;
        this.deps.onError?.(this.name, error);
        const wait = this.streak.failed(this.failedAt);
        this.failedAt = undefined;
        await sleep(wait, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /**
   * Reacts to what is in the store now, then returns (tests, CLI), once the automatic tries of what
   * it parked are spent or succeeded.
   */
  async catchUp(): Promise<void> {
    await ensureCheckpoint(this.deps.dataSource.manager, this.name);
    await this.lot.load(this.deps.dataSource.manager);
    for (;;) {
      const after = await readCheckpoint(this.deps.dataSource.manager, this.name);
      await this.retryDue(after);
      const events = await this.deps.store.readAll({ after, maxCount: BATCH_SIZE });
      if (events.length > 0) {
        await this.reactTo(events, after);
        continue;
      }
      const wait = this.lot.nextRetryIn(Date.now(), this.retryMs);
      if (wait === undefined) return;
      await sleep(wait);
    }
  }

  private async follow(signal: AbortSignal): Promise<void> {
    let after = await readCheckpoint(this.deps.dataSource.manager, this.name);
    await this.lot.load(this.deps.dataSource.manager);
    const feed = this.deps.feed;
    if (!feed) return this.subscribe(after, signal);
    // Reactions go on while the next batches are read: a line spans batches (see ReactionWindow).
    const window = this.openWindow(after, signal);
    // One signal for the window's life: combined at every batch, they were 1.3 % of the worker's CPU.
    const stopped = AbortSignal.any([signal, window.failure]);
    const watch = this.watchSlowReactions(window);
    try {
      while (!signal.aborted && !window.error) {
        if (this.lot.dueForRetry(Date.now(), this.retryMs).length > 0) {
          // A parked owner's events are reacted to again alone, after every line in flight.
          await window.drain();
          if (window.error) break;
          await this.retryDue(after, signal);
        }
        // Woken for the next automatic try of a parked event, if one is pending, or a failed line.
        const wait = this.lot.nextRetryIn(Date.now(), this.retryMs);
        const until = wait === undefined ? stopped : abortedOrAfter(stopped, wait);
        const events = await feed.follow(after, until, BATCH_SIZE);
        if (events.length === 0) continue;
        after = events.at(-1)!.globalPosition;
        const acted = this.actedIn(events);
        // Nothing for this partition: stored with the others' within a second, not at once.
        if (acted.length === 0 && window.idle) {
          window.passed(after);
          this.streak.passed(after);
          this.skipped.note(this.name, after);
        } else await window.add(acted, after);
      }
    } finally {
      clearInterval(watch);
      // Stopping or failed: what is done is stored if it can be (else a restart passes it again).
      await window.drain();
      await this.skipped.flush();
    }
    if (window.error) {
      this.failedAt = window.error.position;
      throw window.error.error;
    }
  }

  /**
   * Looks at the window's oldest reaction every tenth of `slowReactionMs` and tells of it once when it
   * has run longer: nothing else would show a partition whose checkpoint stands still without an error.
   */
  private watchSlowReactions(window: ReactionWindow): NodeJS.Timeout | undefined {
    const onSlow = this.deps.onSlowReaction;
    if (!onSlow) return undefined;
    const slowMs = this.options.slowReactionMs ?? SLOW_REACTION_MS;
    let told: Reacting | undefined;
    return setInterval(
      () => {
        const oldest = window.oldest;
        if (!oldest || oldest === told) return;
        const ms = Date.now() - oldest.since;
        if (ms < slowMs) return;
        told = oldest;
        onSlow(this.name, { ...oldest, ms, open: window.openCount });
      },
      Math.max(10, slowMs / 10),
    ).unref();
  }

  /** The automatic tries now due: each parked owner's events reacted to again, up to `through`. */
  private async retryDue(through: bigint, signal?: AbortSignal): Promise<void> {
    for (const parked of this.lot.dueForRetry(Date.now(), this.retryMs)) {
      await this.resume(parked, through, undefined, signal);
    }
  }

  private get retryMs(): number {
    return this.options.retryMs ?? 500;
  }

  private async subscribe(after: bigint, signal: AbortSignal): Promise<void> {
    const local = new AbortController();
    try {
      const events = this.deps.store.subscribeToAll({
        after,
        signal: AbortSignal.any([signal, local.signal]),
      });
      for await (const batch of batched(events, BATCH_SIZE, 5)) {
        await this.reactTo(batch, after, signal);
        after = batch.at(-1)!.globalPosition;
      }
    } finally {
      local.abort();
    }
  }

  /** Events of an erased user (unreadable payload, deleted streams) are left alone. */
  private async reactToOne(event: RecordedEvent, signal?: AbortSignal): Promise<void> {
    const decoded = await this.decode(event);
    if (decoded.erased) return;
    try {
      await this.reactor.react(decoded, signal);
    } catch (error) {
      if (error instanceof StreamDeletedError) return;
      throw error;
    }
  }

  private decode(event: RecordedEvent): Promise<DecodedEvent> {
    return this.deps.feed ? this.deps.feed.decode(event) : this.deps.codec.decode(event);
  }

  /** One batch, its reactions done before it returns (`catchUp`, a store without a shared feed). */
  private async reactTo(
    events: readonly RecordedEvent[],
    after: bigint,
    signal?: AbortSignal,
  ): Promise<void> {
    const window = this.openWindow(after, signal);
    await window.add(this.actedIn(events), events.at(-1)!.globalPosition);
    await window.drain();
    if (window.error) throw window.error.error;
  }

  private openWindow(after: bigint, signal?: AbortSignal): ReactionWindow {
    return new ReactionWindow(
      this.options.ownersInFlight ?? 1,
      (event) => this.reactInLine(event, signal),
      {
        write: (position) => {
          // Everything up to `position` is done: a failure there has been got past.
          this.streak.passed(position);
          return writeCheckpoint(this.deps.dataSource.manager, this.name, position);
        },
        onError: (error) => this.deps.onError?.(this.name, error),
      },
      after,
      signal,
    );
  }

  /**
   * The batch's events this partition acts on, with their owner's key: an operator's decision (its
   * owner's), an erasure or a handled event of an owner of the partition. Owners are independent (a
   * reaction reads and writes its owner's streams only); a decision and an erasure join their owner's
   * line, so what an owner's events see of the parking lot is what a one-at-a-time run would show.
   */
  private actedIn(events: readonly RecordedEvent[]): { key: string; event: RecordedEvent }[] {
    const acted: { key: string; event: RecordedEvent }[] = [];
    for (const event of events) {
      const decision = this.lot.decisionOf(event);
      if (
        decision !== undefined ||
        ((this.handled.has(event.type) || event.type === USER_ERASED) && this.lot.owns(event))
      ) {
        acted.push({ key: ownerKey(decision?.owner ?? this.lot.ownerOf(event)), event });
      }
    }
    return acted;
  }

  /** One event of an owner's line: an operator's decision, an erasure, or a reaction (unless held). */
  private async reactInLine(event: RecordedEvent, signal?: AbortSignal): Promise<void> {
    const decision = this.lot.decisionOf(event);
    if (decision) await this.carryOut(decision, signal);
    else if (event.type === USER_ERASED && this.lot.holds(event)) {
      await this.release(this.lot.ownerOf(event));
    } else if (this.handled.has(event.type) && !this.lot.holds(event)) {
      await this.deps.projectionsFirst?.turn(signal);
      await this.reactOrPark(event, signal);
    }
  }

  /** A reaction that fails for a reason of its own parks its event (and holds its owner). */
  private async reactOrPark(event: RecordedEvent, signal?: AbortSignal): Promise<void> {
    try {
      await this.reactToOne(event, signal);
    } catch (error) {
      if (isTransient(error) || signal?.aborted) throw error;
      await this.park(event, error);
    }
  }

  private async park(event: RecordedEvent, error: unknown): Promise<void> {
    const parked = await park(this.deps.dataSource.manager, {
      consumer: this.lot.consumer,
      partition: this.name,
      ...this.lot.ownerOf(event),
      position: event.globalPosition,
      eventId: event.eventId,
      eventType: event.type,
      error: describeFailure(error),
      attempts: 1,
    });
    this.lot.remember(parked);
    if (this.lot.isFinal(parked)) this.deps.onParked?.(parked);
  }

  /** An operator's retry or skip, for the event parked now (else nothing to do). */
  private async carryOut(decision: Decision, signal?: AbortSignal): Promise<void> {
    const parked = this.lot.parkedFor(decision.owner);
    if (!parked || parked.eventId !== decision.ref.eventId) return;
    const skip = decision.kind === 'ParkedEventSkipped' ? parked.eventId : undefined;
    await this.resume(parked, decision.position, skip, signal);
  }

  /**
   * The owner's events from the parked one up to `through` (less a skipped one) reacted to again, in
   * order; one that fails again is parked again (one more try counted when it is the same event).
   */
  private async resume(
    parked: ParkedEvent,
    through: bigint,
    skip: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const owner = { workspaceId: parked.workspaceId, userId: parked.userId };
    const events = await readOwnerEvents(
      this.deps.store,
      owner,
      parked.position - 1n,
      through,
      this.lot.resumeThrough(parked),
    );
    for (const event of events) {
      if (!this.handled.has(event.type) || event.eventId === skip) continue;
      try {
        await this.reactToOne(event, signal);
      } catch (error) {
        if (isTransient(error) || signal?.aborted) throw error;
        await this.park(event, error);
        return;
      }
    }
    await this.release(owner);
  }

  private async release(owner: { workspaceId: string; userId: string }): Promise<void> {
    await unpark(this.deps.dataSource.manager, this.lot.consumer, owner);
    this.lot.forget(owner);
  }
}
