type Listener = () => void;

/** A runner's cached row with a key's columns (undefined: not cached). */
export type RowLookup = (key: Readonly<Record<string, unknown>>) => object | undefined;

/**
 * The checkpoints committed by the projection runners of this process, so that a wait for a
 * projection run here is woken by its commit instead of polling the checkpoints table. A projection
 * is known only while its runner runs (from the checkpoint it started at); once the runner stops
 * (its lease lost, the worker stopping), waits read the table again. Each projection also has a
 * version that changes whenever its rows may have changed, for caches of its rows in this process,
 * and the runner's row cache, read by process managers instead of the table (`rowAt`). For the
 * projections other workers run, it keeps the checkpoint this process last read in the table
 * (`sawInTable`), so that a wait for a position seen passed a moment ago sends no query.
 */
export class CommittedCheckpoints {
  private readonly positions = new Map<string, bigint>();
  private readonly versions = new Map<string, number>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly lookups = new Map<string, RowLookup>();
  private readonly seenInTable = new Map<string, { position: bigint; at: number }>();
  private nextVersion = 1;

  /**
   * `seenForMs`: how long a checkpoint read in the table is taken as still reached. Checkpoints only
   * move forward, but for a rebuild, which resets one behind every reader's back: a reaction then
   * reads a read model being rebuilt, as it does when its own poll came just before the reset, for
   * this long at most (the runners themselves notice at their next batch).
   */
  constructor(readonly seenForMs = 1_000) {}

  /**
   * The runner of `name` runs here, from `position` (also after it found its checkpoint moved);
   * `rows` looks its row cache up.
   */
  started(name: string, position: bigint, rows?: RowLookup): void {
    if (rows) this.lookups.set(name, rows);
    this.publish(name, position, true);
  }

  /** `rowsChanged`: the batch held events the projection handles. */
  committed(name: string, position: bigint, rowsChanged: boolean): void {
    this.publish(name, position, rowsChanged);
  }

  stopped(name: string): void {
    this.positions.delete(name);
    this.versions.delete(name);
    this.lookups.delete(name);
    this.notify(name);
  }

  /** Undefined when no runner of this process runs `name`. */
  positionOf(name: string): bigint | undefined {
    return this.positions.get(name);
  }

  /**
   * The row with `key` of the projection partition `name`, from its runner's cache, when that runner
   * runs here, has committed `atLeast` and holds the row; undefined otherwise (read the table). The
   * row is as of the runner's last commit: what a read of the table would give once the wait for
   * `atLeast` is over, or newer. Only the runner writes its partition's rows (its lease proves it), so
   * a cached row is the table's; a runner that lost its lease has stopped committing, so its rows stay
   * those of a position past `atLeast`, as a reader just before the new holder's commit would see.
   */
  rowAt<Row extends object>(
    name: string,
    key: Readonly<Partial<Row>>,
    atLeast: bigint,
  ): Readonly<Row> | undefined {
    const position = this.positions.get(name);
    if (position === undefined || position < atLeast) return undefined;
    return this.lookups.get(name)?.(key) as Readonly<Row> | undefined;
  }

  /** Changes whenever the rows of `name` may have changed; undefined when not run here. */
  rowsVersionOf(name: string): number | undefined {
    return this.versions.get(name);
  }

  /**
   * `position` was read in the checkpoints table for `name` just now: for `seenForMs`, a wait for it
   * or an earlier position needs no query.
   */
  sawInTable(name: string, position: bigint): void {
    // The last read wins, even lower: a rebuild's reset is seen at once.
    this.seenInTable.set(name, { position, at: Date.now() });
  }

  /** The checkpoint of `name` last read in the table, within `seenForMs`; undefined: none. */
  tablePositionOf(name: string): bigint | undefined {
    const seen = this.seenInTable.get(name);
    return seen !== undefined && Date.now() - seen.at <= this.seenForMs ? seen.position : undefined;
  }

  /** The partitions run here that have not committed `position`. */
  behind(position: bigint): string[] {
    const names: string[] = [];
    for (const [name, at] of this.positions) if (at < position) names.push(name);
    return names;
  }

  /** Resolves at the next change of any of `names` (a commit, a runner started or stopped). */
  nextChange(names: readonly string[], signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        for (const name of names) this.listeners.get(name)?.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', done, { once: true });
      for (const name of names) {
        let set = this.listeners.get(name);
        if (!set) this.listeners.set(name, (set = new Set()));
        set.add(done);
      }
    });
  }

  private publish(name: string, position: bigint, rowsChanged: boolean): void {
    this.positions.set(name, position);
    if (rowsChanged || !this.versions.has(name)) this.versions.set(name, this.nextVersion++);
    this.notify(name);
  }

  private notify(name: string): void {
    const set = this.listeners.get(name);
    if (!set || set.size === 0) return;
    for (const listener of [...set]) listener();
  }
}
