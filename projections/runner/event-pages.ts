import type { RecordedEvent } from '@engram/event-store';

type Page = {
  /** The page holds every event in (after, through]. */
  after: bigint;
  through: bigint;
  events: readonly RecordedEvent[];
  lastUsed: number;
};

export type EventPagesLimits = Readonly<{ maxEvents: number; maxPages: number }>;

/**
 * Recently read runs of the global log, kept so that consumers close to each other read each event
 * from the store once (and share the same objects, so a decode can be memoized per object). Pages
 * never overlap; the least recently used ones are dropped beyond the limits.
 */
export class EventPages {
  /** Sorted by `after`. */
  private pages: Page[] = [];
  private eventCount = 0;
  private uses = 0;
  private last: bigint | undefined;

  constructor(private readonly limits: EventPagesLimits) {}

  /** The position of the latest event ever added (kept when its page is dropped). */
  get latest(): bigint | undefined {
    return this.last;
  }

  get size(): Readonly<{ events: number; pages: number }> {
    return { events: this.eventCount, pages: this.pages.length };
  }

  /**
   * Up to `max` events after `position`, from the page holding it and the pages that follow it
   * without a gap; undefined when no page holds the events right after `position`.
   */
  eventsAfter(position: bigint, max: number): RecordedEvent[] | undefined {
    let index = this.indexHolding(position);
    if (index < 0) return undefined;
    const out: RecordedEvent[] = [];
    let from = position;
    while (index < this.pages.length && out.length < max) {
      const page = this.pages[index]!;
      if (page.after > from) break;
      page.lastUsed = ++this.uses;
      const start = firstAfter(page.events, from);
      out.push(...page.events.slice(start, start + max - out.length));
      from = page.through;
      index += 1;
    }
    return out;
  }

  /**
   * How many events lie after `from` up to `to`, counted in the pages that follow the one holding
   * `from` without a gap (up to the last of them if `to` is beyond); undefined when no page holds
   * the events right after `from`.
   */
  countBetween(from: bigint, to: bigint): number | undefined {
    let index = this.indexHolding(from);
    if (index < 0) return undefined;
    let count = 0;
    let at = from;
    for (; index < this.pages.length; index += 1) {
      const page = this.pages[index]!;
      if (page.after > at) break;
      const start = firstAfter(page.events, at);
      if (to <= page.through) return count + firstAfter(page.events, to) - start;
      count += page.events.length - start;
      at = page.through;
    }
    return count;
  }

  /**
   * Keeps what a read of the events after `after` returned (in order, without a gap), minus what
   * other pages already hold: a read that runs into a later page is cut where that page starts.
   */
  add(after: bigint, events: readonly RecordedEvent[]): void {
    const through = events.at(-1)?.globalPosition;
    if (through !== undefined && (this.last === undefined || through > this.last)) {
      this.last = through;
    }
    let from = after;
    let kept = events;
    for (let holder = this.indexHolding(from); holder >= 0; holder = this.indexHolding(from)) {
      from = this.pages[holder]!.through;
      kept = kept.slice(firstAfter(kept, from));
    }
    const index = this.pages.findIndex((page) => page.after > from);
    if (index >= 0) kept = kept.slice(0, firstAfter(kept, this.pages[index]!.after));
    if (kept.length === 0) return;
    const page = { after: from, through: kept.at(-1)!.globalPosition, events: kept, lastUsed: 0 };
    page.lastUsed = ++this.uses;
    this.pages.splice(index >= 0 ? index : this.pages.length, 0, page);
    this.eventCount += kept.length;
    this.evict(page);
  }

  private evict(keep: Page): void {
    while (
      this.pages.length > 1 &&
      (this.eventCount > this.limits.maxEvents || this.pages.length > this.limits.maxPages)
    ) {
      let oldest = this.pages[0] === keep ? 1 : 0;
      for (let i = 0; i < this.pages.length; i += 1) {
        if (this.pages[i] !== keep && this.pages[i]!.lastUsed < this.pages[oldest]!.lastUsed) {
          oldest = i;
        }
      }
      this.eventCount -= this.pages[oldest]!.events.length;
      this.pages.splice(oldest, 1);
    }
  }

  /** The page holding at least one event right after `position`, or -1. */
  private indexHolding(position: bigint): number {
    let low = 0;
    let high = this.pages.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const page = this.pages[middle]!;
      if (position < page.after) high = middle - 1;
      else if (position >= page.through) low = middle + 1;
      else return middle;
    }
    return -1;
  }
}

/** Index of the first event strictly after `position` (events sorted by position). */
function firstAfter(events: readonly RecordedEvent[], position: bigint): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (events[middle]!.globalPosition <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}
