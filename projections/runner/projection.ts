import type { DomainEventType, Event, EventOfType } from '@engram/domain';
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
 *
 * Typed by the union `E` of the events it handles, as an Emmett `evolve` is: `handles` lists exactly the
 * types of `E` (write `E` as `HandledBy<typeof HANDLES>`), `apply` switches over them and ends with
 * `assertNever`, so a type added to the list without its case does not compile.
 */
export type Projection<Row extends OwnedRow, E extends Event = Event> = Readonly<{
  name: string;
  entity: EntityTarget<Row>;
  /** Primary key columns (entity property names). */
  key: readonly (keyof Row & string)[];
  handles: readonly E['type'][];
  /** Keys of the existing rows `apply` needs to see for this event. */
  keysOf: (event: DecodedEvent<E>) => readonly Partial<Row>[];
  apply: (event: DecodedEvent<E>, rows: RowsView<Row>) => readonly RowChange<Row>[];
}>;

/** The events a projection declaring the const tuple `Types` receives. */
export type HandledBy<Types extends readonly DomainEventType[]> = EventOfType<Types[number]>;

/**
 * A projection of rows `Row`, whatever events it handles: what the runner's machinery works with. It
 * feeds `apply` and `keysOf` only events that `handles` names (`isHandledBy`), which is what makes the
 * typed signatures true.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the event union is the projection's own
export type RowProjection<Row extends OwnedRow> = Projection<Row, any>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list of projections
export type AnyProjection = RowProjection<any>;

const handledSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Whether `projection` handles `event`'s type: the check that narrows a decoded event to its union. */
export function isHandledBy<Row extends OwnedRow, E extends Event>(
  projection: Projection<Row, E>,
  event: DecodedEvent,
): event is DecodedEvent<E> {
  let types = handledSets.get(projection.handles);
  if (!types) {
    types = new Set(projection.handles);
    handledSets.set(projection.handles, types);
  }
  return types.has(event.event.type);
}

/** Recorded when an auditor erases a user: every per-user read model drops that user's rows. */
export const USER_ERASED = 'UserErased';

export function isPerUser(projection: Pick<Projection<OwnedRow>, 'key'>): boolean {
  return projection.key.includes('userId');
}

/** The event types a projection's runner feeds it: its own, plus erasure for per-user read models. */
export function typesFedTo(
  projection: Pick<Projection<OwnedRow>, 'handles' | 'key'>,
): ReadonlySet<string> {
  return new Set([...projection.handles, ...(isPerUser(projection) ? [USER_ERASED] : [])]);
}

export function rowKeyString<Row extends OwnedRow>(
  projection: RowProjection<Row>,
  row: Partial<Row>,
): string {
  return JSON.stringify(projection.key.map((column) => row[column] ?? null));
}
