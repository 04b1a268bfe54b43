/** A stream's decided state as of one of its events, and that event's identity. */
export type KnownStreamState = Readonly<{
  /** The decider that folded it: a state is used only by the same one. */
  decider: object;
  state: unknown;
  /** The revision and id of the stream's event the state was folded up to. */
  revision: bigint;
  eventId: string;
}>;

/**
 * The states `handleCommand` folded for the streams it handled last, kept in memory (at most
 * `capacity`, the least recently used dropped first) so that handling a command on the same stream
 * again reads only the events appended since, not the whole stream: a memory reinforced at every
 * message a user restates it would otherwise be read whole each time, its stream growing with each
 * reinforcement.
 *
 * A cache of a fold, never the truth: the state is used only when the stream still holds the same
 * event at the same revision (read back with the tail), and appends still expect the stream's exact
 * revision, so another process's writes, a deleted stream or a lost entry cost a longer read,
 * never a wrong decision. It holds decided states, decrypted personal fields included, in this
 * process's memory only, as a read holds them while deciding; an erased owner's streams are
 * deleted, so their entries are dropped at the next use or pushed out by newer ones.
 */
export class StreamStates {
  private readonly entries = new Map<string, KnownStreamState>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`StreamStates: capacity must be a positive integer, got ${capacity}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `streamId` when it was folded by `decider`; marks it as the most recently used. */
  get<State>(
    streamId: string,
    decider: object,
  ): (KnownStreamState & Readonly<{ state: State }>) | undefined {
    const entry = this.entries.get(streamId);
    if (entry === undefined || entry.decider !== decider) return undefined;
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    return entry as KnownStreamState & Readonly<{ state: State }>;
  }

  set(streamId: string, entry: KnownStreamState): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, { ...entry, eventId: entry.eventId.toLowerCase() });
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
  }

  delete(streamId: string): void {
    this.entries.delete(streamId);
  }
}
