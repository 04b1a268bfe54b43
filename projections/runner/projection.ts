import type { DecodedEvent } from '@engram/event-store';
import type { EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Every read-model row belongs to a workspace, and (all but workspace settings) to one user of it;
 * RLS policies rely on these columns.
 */
export type OwnedRow = ObjectLiteral & { workspaceId: string; userId?: string };

export type RowChange<Row extends OwnedRow> =
  | Readonly<{ kind: 'upsert'; row: Row }>
  | Readonly<{ kind: 'delete'; row: Row }>
  | Readonly<{ kind: 'deleteOwner'; workspaceId: string; userId: string }>;

/** The rows a projection already holds, preloaded by the runner for the keys the batch's events named. */
export type RowsView<Row extends OwnedRow> = Readonly<{
  get(key: Partial<Row>): Row | undefined;
}>;

/**
 * A read model declared as data and pure functions: which events it handles, which rows each event
 * touches, and the row changes it makes. The runner does the I/O (loading rows, writing the changes and
 * the checkpoint in one transaction); `apply` must be deterministic (time comes from the event).
 */
export type Projection<Row extends OwnedRow> = Readonly<{
  name: string;
  entity: EntityTarget<Row>;
  /** Primary key columns (entity property names). */
  key: readonly (keyof Row & string)[];
  handles: readonly string[];
  /** Keys of the existing rows `apply` needs to see for this event. */
  keysOf: (event: DecodedEvent) => readonly Partial<Row>[];
  apply: (event: DecodedEvent, rows: RowsView<Row>) => readonly RowChange<Row>[];
}>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list of projections
export type AnyProjection = Projection<any>;

/** Recorded when an auditor erases a user: every per-user read model drops that user's rows. */
export const USER_ERASED = 'UserErased';

export function isPerUser(projection: AnyProjection): boolean {
  return projection.key.includes('userId');
}

/** The event types a projection's runner feeds it: its own, plus erasure for per-user read models. */
export function typesFedTo(projection: AnyProjection): ReadonlySet<string> {
  return new Set([...projection.handles, ...(isPerUser(projection) ? [USER_ERASED] : [])]);
}

export function rowKeyString<Row extends OwnedRow>(
  projection: Projection<Row>,
  row: Partial<Row>,
): string {
  return JSON.stringify(projection.key.map((column) => row[column] ?? null));
}
