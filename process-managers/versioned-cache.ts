type Entry<T> = { value: Promise<T>; version: number };

/**
 * Values read from a read model, each kept with the version of the rows it was read from
 * (`CommittedCheckpoints.rowsVersionOf` of the partition holding them) and read again once that
 * version moved. Bounded: past `maxEntries` it starts over.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, currentVersion: () => number | undefined, read: () => Promise<T>): Promise<T> {
    // Taken before the read: a change committed during the read makes the entry stale at once.
    const version = currentVersion();
    if (version === undefined) return read();
    const entry = this.entries.get(key);
    if (entry?.version === version) return entry.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = read();
    // A failed read is not kept: the next reaction reads again.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    this.entries.set(key, { value, version });
    return value;
  }
}
