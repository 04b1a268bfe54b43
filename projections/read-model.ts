import type { MigrationClass } from '@engram/database';
import type { OwnedRow, RowProjection } from './runner/projection';

/**
 * One read model as its folder exports it: the projection that fills it, the entity that maps its
 * table, the migrations that create and change it. `projections/index.ts` builds the worker's,
 * the data source's and the migrations' lists from one list of these.
 */
export type ReadModel<Row extends OwnedRow = OwnedRow> = Readonly<{
  projection: RowProjection<Row>;
  entity: new () => Row;
  /** By class: TypeORM runs every read model's migrations together, in the order of their timestamps. */
  migrations: readonly MigrationClass[];
}>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list of read models
export type AnyReadModel = ReadModel<any>;

/** Checks that the entity is the one the projection writes. */
export function readModel<Row extends OwnedRow>(model: ReadModel<Row>): ReadModel<Row> {
  if (model.entity !== model.projection.entity) {
    throw new Error(`read model ${model.projection.name}: its entity is not its projection's`);
  }
  return model;
}
