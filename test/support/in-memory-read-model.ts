import type { DecodedEvent } from '@engram/event-store';
import { rowKeyString, typesFedTo, type OwnedRow, type RowProjection } from '@engram/projections';
import { applyBatch } from '../../projections/runner/apply-batch';
import type { RowTable } from '../../projections/runner/row-table';

type Criteria = Record<string, unknown>;

const matches = (row: OwnedRow, criteria: Criteria) =>
  Object.entries(criteria).every(([column, value]) => row[column] === value);

/**
 * One projection's table in memory, written by the runner's own `applyBatch` through its `RowTable`
 * (find by keys, delete by criteria, upsert): the fold is the real one, only the storage is a Map.
 * Rows are copied in and out, as a database would.
 */
export class InMemoryReadModel<Row extends OwnedRow> {
  private readonly table = new Map<string, Row>();

  constructor(private readonly projection: RowProjection<Row>) {}

  private readonly rowTable: RowTable<Row> = {
    findByKeys: (keys) =>
      Promise.resolve(
        [...this.table.values()]
          .filter((row) => keys.some((criteria) => matches(row, criteria)))
          .map((row) => structuredClone(row)),
      ),
    deleteWhere: (criteria) => {
      for (const [key, row] of this.table) if (matches(row, criteria)) this.table.delete(key);
      return Promise.resolve();
    },
    upsert: (rows) => {
      for (const row of rows) {
        this.table.set(rowKeyString(this.projection, row), structuredClone(row));
      }
      return Promise.resolve();
    },
  };

  /**
   * Applies the events in batches of `batchSize` (all in one batch by default), fed as the runner
   * feeds them: only the types the projection handles, and erasures.
   */
  async apply(events: readonly DecodedEvent[], batchSize = events.length): Promise<void> {
    const fed = typesFedTo(this.projection);
    const handled = events.filter((event) => fed.has(event.event.type));
    const size = Math.max(1, batchSize);
    for (let start = 0; start < handled.length; start += size) {
      await applyBatch(this.rowTable, this.projection, handled.slice(start, start + size));
    }
  }

  /** Every row, ordered by key. */
  rows(): Row[] {
    return [...this.table.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => row);
  }
}
