type Entry<T> = { value: Promise<T>; through: bigint; at: number };

/**
 * Values read from a read model another worker projects, each kept with the checkpoint its
 * partition had in the table before the read (`CommittedCheckpoints.tablePositionOf`): the rows
 * read then reflect every event up to it, so the value serves any reaction that waited for that
 * position or an earlier one, and is read again for a later one. A worker catching up on a
 * backlog reacts at positions the other worker's checkpoint passed long ago, and reads once per
 * checkpoint seen instead of once per reaction; a worker reacting at the head reads every time.
 * Bounded: past `maxEntries` it starts over; an entry serves for `maxAgeMs` (as the checkpoints
 * seen do: a rebuild resets a read model behind every reader's back, and a value read from it then
 * is not kept longer than a wait would take it as reached).
 */
export class ReadThroughCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly maxEntries: number,
    /** `CommittedCheckpoints.seenForMs` of the worker. */
    private readonly maxAgeMs: number,
  ) {}

  get(
    key: string,
    waitedFor: bigint,
    seenInTable: () => bigint | undefined,
    read: () => Promise<T>,
  ): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && entry.through >= waitedFor && Date.now() - entry.at <= this.maxAgeMs) {
      return entry.value;
    }
    // Taken before the read: the read sees that checkpoint's rows or newer ones.
    const through = seenInTable();
    const value = read();
    if (through === undefined || through < waitedFor) return value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // A failed read is not kept: the next reaction reads again.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    this.entries.set(key, { value, through, at: Date.now() });
    return value;
  }
}
