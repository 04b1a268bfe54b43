import type { RecordedEvent } from '@engram/event-store';
import { EventPages } from './event-pages';

function events(from: number, to: number): RecordedEvent[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({
    eventId: `e${from + i}`,
    type: 'T',
    schemaVersion: 1,
    data: {},
    metadata: {},
    streamId: 's',
    streamRevision: BigInt(from + i),
    globalPosition: BigInt(from + i),
    recordedAt: new Date(0),
  }));
}

const positions = (list: readonly RecordedEvent[] | undefined) =>
  list?.map((event) => Number(event.globalPosition));

describe('event pages', () => {
  it('serves the events after any position a page holds, through the pages that follow it', () => {
    const pages = new EventPages({ maxEvents: 100, maxPages: 10 });
    pages.add(0n, events(1, 5));
    pages.add(5n, events(6, 8));
    expect(positions(pages.eventsAfter(0n, 100))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(positions(pages.eventsAfter(3n, 4))).toEqual([4, 5, 6, 7]);
    expect(pages.eventsAfter(8n, 100)).toBeUndefined();
    expect(pages.eventsAfter(20n, 100)).toBeUndefined();
  });

  it('stops at a gap between pages', () => {
    const pages = new EventPages({ maxEvents: 100, maxPages: 10 });
    pages.add(0n, events(1, 3));
    pages.add(10n, events(11, 12));
    expect(positions(pages.eventsAfter(1n, 100))).toEqual([2, 3]);
    expect(pages.eventsAfter(5n, 100)).toBeUndefined();
  });

  it('keeps one copy of each event: a read running into held pages keeps only what is new', () => {
    const pages = new EventPages({ maxEvents: 100, maxPages: 10 });
    pages.add(4n, events(5, 6));
    pages.add(0n, events(1, 9));
    expect(pages.size).toEqual({ events: 6, pages: 2 });
    expect(positions(pages.eventsAfter(0n, 100))).toEqual([1, 2, 3, 4, 5, 6]);
    pages.add(2n, events(3, 12));
    expect(pages.size).toEqual({ events: 12, pages: 3 });
    expect(positions(pages.eventsAfter(0n, 100))).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
  });

  it('returns the objects it holds, so that consumers share them', () => {
    const pages = new EventPages({ maxEvents: 100, maxPages: 10 });
    const read = events(1, 3);
    pages.add(0n, read);
    expect(pages.eventsAfter(1n, 100)![0]).toBe(read[1]);
  });

  it('drops the least recently used pages beyond its limits, never the one just added', () => {
    const pages = new EventPages({ maxEvents: 10, maxPages: 3 });
    pages.add(0n, events(1, 4));
    pages.add(4n, events(5, 8));
    pages.eventsAfter(0n, 1);
    pages.add(8n, events(9, 12));
    expect(pages.size).toEqual({ events: 8, pages: 2 });
    expect(pages.eventsAfter(4n, 100)).toBeUndefined();
    expect(positions(pages.eventsAfter(0n, 100))).toEqual([1, 2, 3, 4]);
    pages.add(12n, events(13, 30));
    expect(pages.size).toEqual({ events: 18, pages: 1 });
  });

  it('remembers the latest position it was given, an earlier page added later or its page dropped', () => {
    const pages = new EventPages({ maxEvents: 4, maxPages: 2 });
    expect(pages.latest).toBeUndefined();
    pages.add(8n, events(9, 12));
    pages.add(0n, events(1, 4));
    expect(pages.latest).toBe(12n);
    pages.add(20n, []);
    expect(pages.latest).toBe(12n);
    expect(pages.eventsAfter(8n, 10)).toBeUndefined();
  });

  it('counts the events between two positions through pages without a gap', () => {
    const pages = new EventPages({ maxEvents: 100, maxPages: 10 });
    pages.add(0n, events(1, 5));
    pages.add(5n, events(6, 8));
    pages.add(20n, events(21, 22));
    expect(pages.countBetween(0n, 8n)).toBe(8);
    expect(pages.countBetween(2n, 7n)).toBe(5);
    expect(pages.countBetween(3n, 3n)).toBe(0);
    // Beyond the pages that follow without a gap: what they hold.
    expect(pages.countBetween(2n, 30n)).toBe(6);
    expect(pages.countBetween(8n, 10n)).toBeUndefined();
    expect(pages.countBetween(12n, 22n)).toBeUndefined();
  });
});
