import type { DecodedEvent } from '@engram/event-store';
import type { EntityManager } from 'typeorm';
import {
  USER_ERASED,
  isHandledBy,
  isPerUser,
  rowKeyString,
  type OwnedRow,
  type RowProjection,
  type RowChange,
  type RowsView,
} from './projection';
import { sqlRowTable, type RowTable } from './row-table';

type WorkingRow<Row> = { row: Row; deleted: boolean };

/** What a batch leaves to write: the final state of every row it touched. */
export type BatchWrites<Row extends OwnedRow> = Readonly<{
  ownerDeletes: readonly { workspaceId: string; userId: string }[];
  deletes: readonly Partial<Row>[];
  upserts: readonly Row[];
}>;

/**
 * Folds a batch of events into row changes in memory, then writes them with a few statements:
 * owner-wide deletes first, then deletes by key, then one multi-row upsert.
 */
export async function applyBatch<Row extends OwnedRow>(
  target: EntityManager | RowTable<Row>,
  projection: RowProjection<Row>,
  events: readonly DecodedEvent[],
): Promise<void> {
  const table = 'findByKeys' in target ? target : sqlRowTable(target, projection);
  await writeBatch(table, await foldBatch(table, projection, events));
}

/**
 * The batch's events applied in memory to the rows they name (read from `table`). Rows deleted by an
 * owner-wide delete are dropped from the working set, so what is upserted is always the final state.
 */
export async function foldBatch<Row extends OwnedRow>(
  table: RowTable<Row>,
  projection: RowProjection<Row>,
  events: readonly DecodedEvent[],
): Promise<BatchWrites<Row>> {
  const working = await loadRows(table, projection, events);
  const ownerDeletes: { workspaceId: string; userId: string }[] = [];
  const view = {
    get: (key: Partial<Row>) => {
      const entry = working.get(rowKeyString(projection, key));
      return entry && !entry.deleted ? entry.row : undefined;
    },
  };
  for (const event of events) {
    for (const change of changesOf(projection, event, view)) {
      applyChange(projection, working, ownerDeletes, change);
    }
  }
  const entries = [...working.values()];
  return {
    ownerDeletes,
    deletes: entries.filter((entry) => entry.deleted).map((entry) => keyOf(projection, entry.row)),
    upserts: entries
      .filter((entry) => !entry.deleted && entry.row !== undefined)
      .map((entry) => entry.row),
  };
}

export async function writeBatch<Row extends OwnedRow>(
  table: RowTable<Row>,
  writes: BatchWrites<Row>,
): Promise<void> {
  for (const owner of writes.ownerDeletes) await table.deleteWhere(owner as Partial<Row>);
  for (const key of writes.deletes) await table.deleteWhere(key);
  // Rows are written only when a column changed (IS DISTINCT FROM), as TypeORM's
  // skipUpdateIfNoValuesChanged did.
  await table.upsert(writes.upserts);
}

/**
 * Erasure is the runner's business, not each projection's: a `UserErased` event deletes all of that
 * user's rows in every per-user read model, and events whose personal payload can no longer be read
 * (the user's key was destroyed) are skipped, so a rebuild brings none of an erased user's data back.
 */
function changesOf<Row extends OwnedRow>(
  projection: RowProjection<Row>,
  event: DecodedEvent,
  view: RowsView<Row>,
): readonly RowChange<Row>[] {
  if (event.event.type === USER_ERASED) {
    if (!isPerUser(projection)) return [];
    return [
      {
        kind: 'deleteOwner',
        workspaceId: event.metadata.workspaceId,
        userId: event.metadata.userId,
      },
    ];
  }
  if (event.erased || !isHandledBy(projection, event)) return [];
  return projection.apply(event, view);
}

function applyChange<Row extends OwnedRow>(
  projection: RowProjection<Row>,
  working: Map<string, WorkingRow<Row>>,
  ownerDeletes: { workspaceId: string; userId: string }[],
  change: RowChange<Row>,
): void {
  switch (change.kind) {
    case 'upsert':
      working.set(rowKeyString(projection, change.row), { row: change.row, deleted: false });
      return;
    case 'delete':
      working.set(rowKeyString(projection, change.row), { row: change.row, deleted: true });
      return;
    case 'deleteOwner':
      ownerDeletes.push({ workspaceId: change.workspaceId, userId: change.userId });
      for (const [key, entry] of working) {
        if (entry.row.workspaceId === change.workspaceId && entry.row.userId === change.userId) {
          working.delete(key);
        }
      }
      return;
  }
}

function keyOf<Row extends OwnedRow>(
  projection: RowProjection<Row>,
  row: Partial<Row>,
): Partial<Row> {
  return Object.fromEntries(projection.key.map((column) => [column, row[column]])) as Partial<Row>;
}

async function loadRows<Row extends OwnedRow>(
  table: RowTable<Row>,
  projection: RowProjection<Row>,
  events: readonly DecodedEvent[],
): Promise<Map<string, WorkingRow<Row>>> {
  const keys = new Map<string, Partial<Row>>();
  for (const event of events) {
    if (event.event.type === USER_ERASED || event.erased || !isHandledBy(projection, event))
      continue;
    for (const key of projection.keysOf(event)) keys.set(rowKeyString(projection, key), key);
  }
  const working = new Map<string, WorkingRow<Row>>();
  if (keys.size === 0) return working;
  const rows = await table.findByKeys([...keys.values()].map((key) => keyOf(projection, key)));
  for (const row of rows) working.set(rowKeyString(projection, row), { row, deleted: false });
  return working;
}
