import type { RecordedEvent } from '@engram/event-store';
import { ReactionWindow } from './reaction-window';

/** An event of `owner` at `position` (only what the window looks at). */
function at(position: number, owner: string): { key: string; event: RecordedEvent } {
  return { key: owner, event: { globalPosition: BigInt(position) } as RecordedEvent };
}

/** A reaction that ends when the test says so. */
class Gate {
  private opened!: () => void;
  readonly done = new Promise<void>((resolve) => (this.opened = resolve));
  open(): void {
    this.opened();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ReactionWindow (the events a process-manager partition is reacting to)', () => {
  function windowOf(limit: number, gates: Map<number, Gate>, failing = new Set<number>()) {
    const reacted: number[] = [];
    const written: bigint[] = [];
    const window = new ReactionWindow(
      limit,
      async (event) => {
        const position = Number(event.globalPosition);
        await gates.get(position)?.done;
        if (failing.has(position)) throw new Error(`reaction ${position} failed`);
        reacted.push(position);
      },
      { write: async (position) => void written.push(position), onError: () => undefined },
      0n,
    );
    return { window, reacted, written };
  }

  it("takes the next batches while an owner's reaction waits; the checkpoint stays before it", async () => {
    const slow = new Gate();
    const { window, reacted, written } = windowOf(8, new Map([[1, slow]]));
    await window.add([at(1, 'a'), at(2, 'b')], 3n);
    await window.add([at(4, 'b'), at(5, 'a'), at(6, 'c')], 7n);
    await settle();
    // b and c went on; a's second event waits behind its first.
    expect([...reacted].sort()).toEqual([2, 4, 6]);
    expect(written.every((position) => position < 1n)).toBe(true);
    slow.open();
    await window.drain();
    expect(reacted.slice(3)).toEqual([1, 5]);
    expect(written.at(-1)).toBe(7n);
    expect(window.error).toBeUndefined();
  });

  it('starts no more than `limit` owners at once; the next owner waits for a line to end', async () => {
    const gates = new Map([
      [1, new Gate()],
      [2, new Gate()],
    ]);
    const { window, reacted } = windowOf(2, gates);
    let added = false;
    const adding = window.add([at(1, 'a'), at(2, 'b'), at(3, 'c')], 3n).then(() => (added = true));
    await settle();
    expect(added).toBe(false);
    gates.get(2)!.open();
    await adding;
    await settle();
    expect(reacted).toEqual([2, 3]);
    gates.get(1)!.open();
    await window.drain();
    expect(reacted).toEqual([2, 3, 1]);
  });

  it('after a failure, no line takes a new event; the checkpoint stops before the earliest failed event', async () => {
    const gates = new Map([[3, new Gate()]]);
    const { window, reacted, written } = windowOf(8, gates, new Set([2]));
    await window.add([at(1, 'a'), at(2, 'b'), at(3, 'c'), at(4, 'b')], 5n);
    await settle();
    expect(window.failure.aborted).toBe(true);
    gates.get(3)!.open();
    await window.add([at(6, 'd')], 7n);
    await window.drain();
    expect(reacted).toEqual([1, 3]);
    expect(written.at(-1)).toBe(1n);
    expect(String(window.error?.error)).toContain('reaction 2 failed');
  });

  it('past its bound of open events, goes on once they are done, even with a checkpoint write in flight', async () => {
    const first = new Gate();
    const write = new Gate();
    const reacted: number[] = [];
    const written: bigint[] = [];
    const window = new ReactionWindow(
      1,
      async (event) => {
        if (event.globalPosition === 1n) await first.done;
        reacted.push(Number(event.globalPosition));
      },
      {
        write: async (position) => {
          await write.done;
          written.push(position);
        },
        onError: () => undefined,
      },
      0n,
      undefined,
      3,
    );
    let added = false;
    const adding = window
      .add(
        [1, 2, 3, 4, 5].map((position) => at(position, 'a')),
        5n,
      )
      .then(() => (added = true));
    await settle();
    expect(added).toBe(false); // 1, 2 and 3 open: 4 waits
    // 1 done starts a write that does not end; 2, 3 and 4 end during it, the line with them.
    first.open();
    for (let turn = 0; turn < 20 && !added; turn += 1) await settle();
    expect(added).toBe(true); // the write still in flight
    expect(written).toEqual([]);
    write.open();
    await adding;
    await window.drain();
    expect(reacted).toEqual([1, 2, 3, 4, 5]);
    expect(written.at(-1)).toBe(5n);
  });

  it('tells the reaction under way the longest: the one the checkpoint waits for', async () => {
    const gates = new Map([
      [1, new Gate()],
      [2, new Gate()],
    ]);
    const { window } = windowOf(8, gates);
    expect(window.oldest).toBeUndefined();
    await window.add([at(1, 'a')], 1n);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await window.add([at(2, 'b'), at(3, 'a')], 3n);
    expect(window.oldest).toMatchObject({ key: 'a', event: { globalPosition: 1n } });
    expect(window.openCount).toBe(3);
    gates.get(1)!.open();
    await settle();
    expect(window.oldest).toMatchObject({ key: 'b', event: { globalPosition: 2n } });
    gates.get(2)!.open();
    await window.drain();
    expect(window.oldest).toBeUndefined();
    expect(window.openCount).toBe(0);
  });

  it('asks a limit given as a function each time a line would start', async () => {
    const gates = new Map([
      [1, new Gate()],
      [2, new Gate()],
    ]);
    let limit = 1;
    const reacted: number[] = [];
    const window = new ReactionWindow(
      () => limit,
      async (event) => {
        await gates.get(Number(event.globalPosition))?.done;
        reacted.push(Number(event.globalPosition));
      },
      { write: async () => undefined, onError: () => undefined },
      0n,
    );
    await window.add([at(1, 'a')], 1n);
    let added = false;
    const adding = window.add([at(2, 'b')], 2n).then(() => (added = true));
    await settle();
    expect(added).toBe(false); // one owner at a time
    gates.get(1)!.open();
    await adding;
    limit = 8;
    await window.add([at(3, 'c')], 3n); // b still reacting: a second line starts
    await settle();
    expect(reacted).toEqual([1, 3]);
    gates.get(2)!.open();
    await window.drain();
    expect(reacted).toEqual([1, 3, 2]);
  });

  it('a batch passed elsewhere (the skipped checkpoints) is not written again', async () => {
    const { window, written } = windowOf(8, new Map());
    window.passed(10n);
    await window.add([at(11, 'a')], 12n);
    await window.drain();
    expect(written).toEqual([12n]);
  });
});
