import type { RecordedEvent } from '@engram/event-store';
import { CatchUpLimit } from './catch-up-limit';

/** An event read from the log (only what the limit looks at). */
function read(position: number, eventId: string): RecordedEvent {
  return { globalPosition: BigInt(position), eventId } as RecordedEvent;
}

const own = (eventId: string) => ({
  eventId,
  type: 'Tested',
  schemaVersion: 1,
  data: {},
  metadata: {},
});

describe('CatchUpLimit (owners at once for a worker that runs the projections too)', () => {
  function limitAt() {
    const clock = { ms: 0 };
    const limit = new CatchUpLimit(1, 8, 1000, () => clock.ms);
    return { clock, limit };
  }

  it('one owner while another writer appends; eight once only its own appends came for a second', () => {
    const { clock, limit } = limitAt();
    expect(limit.current()).toBe(1); // just started: not quiet yet
    limit.read([read(1, 'api-1')]);
    clock.ms = 900;
    limit.appending([own('mine-1')]);
    limit.read([read(2, 'mine-1')]);
    expect(limit.current()).toBe(1);
    clock.ms = 1000;
    expect(limit.quiet()).toBe(true);
    expect(limit.current()).toBe(8);
    // The first event of anyone else brings it back at once.
    limit.read([read(3, 'mine-2'), read(4, 'api-2')]);
    expect(limit.current()).toBe(1);
  });

  it('counts an own event read before its append returned (told before it is sent)', () => {
    const { clock, limit } = limitAt();
    limit.appending([own('mine-1'), own('mine-2')]);
    limit.read([read(1, 'mine-1')]);
    limit.read([read(2, 'mine-2')]);
    clock.ms = 1000;
    expect(limit.current()).toBe(8);
  });

  it('counts a position read again once: a second reader of the same page changes nothing', () => {
    const { clock, limit } = limitAt();
    limit.appending([own('mine-1')]);
    limit.read([read(1, 'api-1'), read(2, 'mine-1')]);
    clock.ms = 1000;
    // The same page read again (a reader far behind): its events are not new.
    limit.read([read(1, 'api-1'), read(2, 'mine-1')]);
    expect(limit.current()).toBe(8);
  });

  it('never goes below its base: a configured or remote-LLM count holds', () => {
    const limit = new CatchUpLimit(8, 8, 1000, () => 0);
    limit.read([read(1, 'api-1')]);
    expect(limit.current()).toBe(8);
  });
});
