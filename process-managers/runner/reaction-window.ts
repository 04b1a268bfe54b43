import type { RecordedEvent } from '@engram/event-store';

/** Where a window reports what it reacted to: the position every event up to which is done. */
export type WindowCheckpoint = Readonly<{
  write: (position: bigint) => Promise<void>;
  onError: (error: unknown) => void;
}>;

type Open = { readonly position: bigint; readonly before: bigint };

/** A reaction under way: which owner's line, which event, since when (`Date.now()`). */
export type Reacting = Readonly<{ key: string; event: RecordedEvent; since: number }>;

/** Events queued or reacting at most, all lines together (a backlog stays in the store). */
const MAX_OPEN = 1_000;

/** The checkpoint is written at most this often while the window reacts (always when it drains). */
const WRITE_INTERVAL_MS = 100;

/**
 * The events a process-manager partition is reacting to, across batches: each owner's in a line of
 * its own, in order, up to `limit` owners at once. With a remote LLM a reaction mostly waits for the
 * model; one owner's wait must not hold the partition's other owners, nor the next batch (a window
 * closed at each batch's end cost a model call per small batch: 20 extractions/s where 8 lines of 4
 * partitions allow 64, BENCHMARKS round 21).
 *
 * The checkpoint is the position before the earliest event not done (the frontier), written as it
 * moves, one write in flight, at most every 100 ms. After a failure no line takes a new event; the caller drains the
 * window, writes its frontier and goes on from there: what other lines did past it is reacted to
 * again (reactions are idempotent).
 */
export class ReactionWindow {
  private readonly lines = new Map<string, RecordedEvent[]>();
  /** Each line's reaction under way. */
  private readonly reacting = new Map<string, Reacting>();
  private readonly running = new Set<Promise<void>>();
  /** The events queued or reacting, in order, each with the position seen just before it. */
  private readonly open: Open[] = [];
  private readonly done = new Set<bigint>();
  private seen: bigint;
  private written: bigint;
  private writing: Promise<void> | undefined;
  private writeAgain = false;
  private lastWriteAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private readonly failed = new AbortController();
  private firstFailure: { position: bigint; error: unknown } | undefined;

  constructor(
    /** Owners at once: a number, or asked each time a line would start. */
    private readonly limit: number | (() => number),
    private readonly react: (event: RecordedEvent) => Promise<void>,
    private readonly checkpoint: WindowCheckpoint,
    /** The partition's checkpoint when the window opens. */
    after: bigint,
    private readonly signal?: AbortSignal,
    private readonly maxOpen = MAX_OPEN,
  ) {
    this.seen = after;
    this.written = after;
  }

  /** Aborts once a line failed: a wait for more events ends, so that the failure is handled. */
  get failure(): AbortSignal {
    return this.failed.signal;
  }

  /** The error of the earliest event that failed, and that event's position, if one did. */
  get error(): Readonly<{ error: unknown; position: bigint }> | undefined {
    return this.firstFailure;
  }

  /** The reaction under way the longest, if any (what holds the checkpoint when it stands still). */
  get oldest(): Reacting | undefined {
    let oldest: Reacting | undefined;
    for (const reaction of this.reacting.values()) {
      if (!oldest || reaction.since < oldest.since) oldest = reaction;
    }
    return oldest;
  }

  /** Events queued or reacting (a line that stands still holds the others' done ones open). */
  get openCount(): number {
    return this.open.length;
  }

  /** Nothing queued, reacting or being written: a passed batch may be noted the cheap way. */
  get idle(): boolean {
    return this.open.length === 0 && this.writing === undefined && this.timer === undefined;
  }

  /**
   * Queues `acted` (the batch's events this partition acts on, with their owner's key) on their
   * owners' lines, and passes the batch up to `last`. Waits while `limit` owners are reacting and
   * one more would start; returns early once a line failed or the worker stops.
   */
  async add(
    acted: readonly Readonly<{ key: string; event: RecordedEvent }>[],
    last: bigint,
  ): Promise<void> {
    for (const { key, event } of acted) {
      if (this.stopped) return;
      // Bounded: past MAX_OPEN events queued, the next waits (one owner's slow line holds the rest).
      // The count is taken past the done ones each time: while a checkpoint write is in flight, a
      // reaction's end leaves them in `open`, and the line that ended last may wake nobody again.
      while (this.openAfterDone() >= this.maxOpen && !this.stopped) await this.progress();
      if (this.stopped) return;
      const line = this.lines.get(key);
      this.open.push({ position: event.globalPosition, before: this.seen });
      this.seen = event.globalPosition;
      if (line) {
        line.push(event);
        continue;
      }
      while (this.lines.size >= this.limitNow() && !this.stopped) await this.progress();
      if (this.stopped) return;
      this.start(key, [event]);
    }
    if (last > this.seen) this.seen = last;
    this.moved();
  }

  /** A batch with nothing to act on, whose position is stored elsewhere (the skipped checkpoints). */
  passed(position: bigint): void {
    if (position > this.seen) this.seen = position;
    if (position > this.written) this.written = position;
  }

  /** Every line settled (a stopped or failed window leaves its undone events open), the frontier written. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
    for (;;) {
      await this.writes();
      if (this.frontier() <= this.written) break;
      const before = this.written;
      this.moved(true);
      await this.writes();
      if (this.written === before) break; // the write failed: stored by a later window
    }
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private limitNow(): number {
    return Math.max(1, typeof this.limit === 'number' ? this.limit : this.limit());
  }

  private async writes(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private get stopped(): boolean {
    return this.firstFailure !== undefined || this.signal?.aborted === true;
  }

  private start(key: string, line: RecordedEvent[]): void {
    this.lines.set(key, line);
    const run = this.run(key, line).finally(() => {
      this.running.delete(run);
      this.notify();
    });
    this.running.add(run);
  }

  /** Resolves at the next event done or line ended. */
  private progress(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async run(key: string, line: RecordedEvent[]): Promise<void> {
    for (let event = line[0]; event !== undefined; event = line[0]) {
      if (this.stopped) return;
      this.reacting.set(key, { key, event, since: Date.now() });
      try {
        await this.react(event);
      } catch (error) {
        this.reacting.delete(key);
        const position = event.globalPosition;
        if (!this.firstFailure || position < this.firstFailure.position) {
          this.firstFailure = { position, error };
        }
        this.failed.abort();
        return;
      }
      this.reacting.delete(key);
      line.shift();
      this.done.add(event.globalPosition);
      // In the same turn as the check: an event added from now on starts a new line.
      if (line.length === 0) this.lines.delete(key);
      this.moved();
      this.notify();
    }
  }

  /** Events still open once those done at the front are let go. */
  private openAfterDone(): number {
    this.frontier();
    return this.open.length;
  }

  /** The position before the earliest event not done (all passed, when none is open). */
  private frontier(): bigint {
    while (this.open.length > 0 && this.done.delete(this.open[0]!.position)) this.open.shift();
    return this.open[0]?.before ?? this.seen;
  }

  /**
   * Writes the frontier if it moved: one write in flight, at most one every WRITE_INTERVAL_MS (a
   * write per reaction was as many statements as reactions, for a position only a restart reads).
   */
  private moved(now = false): void {
    if (this.writing) {
      this.writeAgain = true;
      return;
    }
    const position = this.frontier();
    if (position <= this.written) return;
    const wait = this.lastWriteAt + WRITE_INTERVAL_MS - Date.now();
    if (!now && wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.moved();
      }, wait).unref();
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastWriteAt = Date.now();
    this.writing = this.checkpoint
      .write(position)
      .then(
        () => {
          if (position > this.written) this.written = position;
        },
        // Not fatal: the checkpoint stays behind, and a restart reacts to those events again.
        (error: unknown) => this.checkpoint.onError(error),
      )
      .finally(() => {
        this.writing = undefined;
        if (this.writeAgain) {
          this.writeAgain = false;
          this.moved();
        }
      });
  }
}
