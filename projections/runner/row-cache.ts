import type { BatchWrites } from './apply-batch';
import { rowKeyString, type OwnedRow, type RowProjection } from './projection';
import type { RowTable } from './row-table';

/**
 * The rows a runner read or wrote in its last batches, so that the next batch loads only the other
 * rows from the database (a rebuild re-read each session row for every batch). It is right only while
 * this runner is the only writer of the projection since it filled it, which the checkpoint proves:
 * the runner drops the cache when a batch finds the checkpoint moved or fails, and fills it only after
 * a commit. Bounded: the least recently used rows are forgotten first.
 */
export class RowCache<Row extends OwnedRow> {
  private readonly rows = new Map<string, Row>();
  /** Projections that never look rows up (one row per event) have nothing to cache. */
  private readsRows = false;

  constructor(
    private readonly projection: RowProjection<Row>,
    private readonly maxRows = 20_000,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** `table` with this cache in front of its reads. */
  reading(table: RowTable<Row>): RowTable<Row> {
    return {
      ...table,
      findByKeys: async (keys) => {
        this.readsRows = true;
        const found: Row[] = [];
        const missing: Partial<Row>[] = [];
        for (const key of keys) {
          const row = this.use(rowKeyString(this.projection, key));
          if (row) found.push(row);
          else missing.push(key);
        }
        return missing.length === 0 ? found : [...found, ...(await table.findByKeys(missing))];
      },
    };
  }

  /**
   * The cached row with `key`'s columns, for a reader outside the runner (a process manager): the
   * row as of the runner's last commit, or undefined when not cached. Not a use: the runner's own
   * reads decide what stays. The row is shared: never to be changed.
   */
  peek(key: Partial<Row>): Readonly<Row> | undefined {
    return this.rows.get(rowKeyString(this.projection, key));
  }

  /** Learns the final state of the rows a committed batch touched (every row it read is among them). */
  commit(writes: BatchWrites<Row>): void {
    for (const owner of writes.ownerDeletes) this.forget(owner as Partial<Row>);
    for (const key of writes.deletes) this.forget(key);
    if (this.readsRows) this.remember(writes.upserts);
  }

  private use(key: string): Row | undefined {
    const row = this.rows.get(key);
    if (row) {
      this.rows.delete(key);
      this.rows.set(key, row);
    }
    return row;
  }

  private remember(rows: readonly Row[]): void {
    for (const row of rows) {
      const key = rowKeyString(this.projection, row);
      this.rows.delete(key);
      this.rows.set(key, row);
    }
    for (const key of this.rows.keys()) {
      if (this.rows.size <= this.maxRows) break;
      this.rows.delete(key);
    }
  }

  private forget(criteria: Partial<Row>): void {
    const columns = Object.keys(criteria) as (keyof Row)[];
    if (this.projection.key.every((column) => columns.includes(column))) {
      this.rows.delete(rowKeyString(this.projection, criteria));
      return;
    }
    for (const [key, row] of this.rows) {
      if (columns.every((column) => row[column] === criteria[column])) this.rows.delete(key);
    }
  }
}
