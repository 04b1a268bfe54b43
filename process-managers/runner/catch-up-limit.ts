import type { EventRecord, RecordedEvent } from '@engram/event-store';

/** The worker's own appends remembered until its feed reads them (a bound: forgotten oldest first). */
const OWN_EVENTS_KEPT = 10_000;

/**
 * Owners a process-manager partition reacts for at once in a worker that runs the projections too:
 * `base` (one, offline) while anyone else writes, `catchUp` once the worker's feed has read nothing
 * but the worker's own appends for `quietMs` (the load has stopped, what is left is the backlog).
 *
 * Why: one owner at a time keeps the cores for the projections while owners wait to read back what
 * they wrote (BENCHMARKS rounds 21, 29); after a burst nobody waits, and the backlog reacted to one
 * owner at a time commits and projects each reaction's appends alone. Several at once batch them
 * (one group commit, one feed read, one projection group for many): after a minute's load one worker's
 * process managers moved 2-3.5x as many events in the next two minutes (9-12x just restarted,
 * BENCHMARKS round 32). The worker's own appends are told before they are sent
 * (`appending`): its projections may read them before the append returns.
 */
export class CatchUpLimit {
  /** Ids of the worker's appends not read back yet, oldest first (a Set keeps insertion order). */
  private readonly own = new Set<string>();
  private highest = -1n;
  private lastOutsideAt: number;

  constructor(
    private readonly base: number,
    private readonly catchUp = 8,
    private readonly quietMs = 1000,
    private readonly now: () => number = Date.now,
  ) {
    this.lastOutsideAt = now();
  }

  /** The worker appends these events (called before the append is sent). */
  appending(events: readonly EventRecord[]): void {
    for (const event of events) {
      if (this.own.size >= OWN_EVENTS_KEPT) this.own.delete(this.own.values().next().value!);
      this.own.add(event.eventId);
    }
  }

  /** The worker's feed read these events (positions read again count once). */
  read(events: readonly RecordedEvent[]): void {
    let outside = false;
    for (const event of events) {
      if (event.globalPosition <= this.highest) continue;
      this.highest = event.globalPosition;
      if (!this.own.delete(event.eventId)) outside = true;
    }
    if (outside) this.lastOutsideAt = this.now();
  }

  /** Nothing but the worker's own appends read for `quietMs`. */
  quiet(): boolean {
    return this.now() - this.lastOutsideAt >= this.quietMs;
  }

  /** The owners at once now (asked each time a line would start). */
  current(): number {
    return this.quiet() ? Math.max(this.base, this.catchUp) : this.base;
  }
}
