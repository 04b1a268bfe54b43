import { createDataSource, runAs } from '@engram/database';
import type { DomainEvent, EventMetadata, Role } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import { READ_MODEL_ENTITIES, type OwnedRow, type RowProjection } from '@engram/projections';
import type { DataSource, EntityManager } from 'typeorm';
import { applyBatch } from '../../projections/runner/apply-batch';
import { createTestDatabase, type TestDatabase } from './test-database';

export type Owner = Readonly<{ workspaceId: string; userId: string }>;

export const ALICE: Owner = { workspaceId: 'w1', userId: 'alice' };
export const BOB: Owner = { workspaceId: 'w1', userId: 'bob' };
/** The admin of workspace w1. */
export const ROOT: Owner = { workspaceId: 'w1', userId: 'root' };

/** Who owns a given event, when it happened, its trace…: what a test may state beside the event. */
export type GivenOptions = Readonly<{
  /** Default ALICE. */
  owner?: Owner;
  /** Default: one minute per position after 2026-06-01T00:00:00Z. */
  occurredAt?: string;
  traceId?: string;
  channel?: string;
  /** Default `{ws}/{user}/spec/{position}`. */
  streamId?: string;
}>;

/** An event as a test states it: one of the catalog's, with the owner and time when they matter. */
export type GivenEvent = DomainEvent & GivenOptions;

export type Row = Record<string, unknown>;

export type ApplyOptions = Readonly<{
  /** Events per `applyBatch` transaction; default all in one. */
  batchSize?: number;
}>;

const BASE_TIME = Date.parse('2026-06-01T00:00:00.000Z');

/** The time the builder gives the event at `position` when the test names none. */
export function defaultOccurredAt(position: number | bigint): string {
  return new Date(BASE_TIME + Number(position) * 60_000).toISOString();
}

/** DecodedEvents at consecutive global positions after `after` (no event store involved). */
export function buildEvents(given: readonly GivenEvent[], after = 0n): DecodedEvent<DomainEvent>[] {
  return given.map((event, index) => {
    const position = after + BigInt(index + 1);
    const owner = event.owner ?? ALICE;
    const metadata: EventMetadata = {
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      causationId: `cause-${position}`,
      correlationId: `correlation-${position}`,
      occurredAt: event.occurredAt ?? defaultOccurredAt(position),
      ...(event.traceId !== undefined ? { traceId: event.traceId } : {}),
      ...(event.channel !== undefined ? { channel: event.channel } : {}),
    };
    return {
      eventId: `event-${position}`,
      // The type and its data, as the test paired them (TypeScript does not follow the pair).
      event: { type: event.type, data: event.data } as DomainEvent,
      metadata,
      streamId: event.streamId ?? `${owner.workspaceId}/${owner.userId}/spec/${position}`,
      streamRevision: 0n,
      globalPosition: position,
      recordedAt: new Date(BASE_TIME + Number(position) * 1000),
      erased: false,
    };
  });
}

function toDecoded(
  events: readonly GivenEvent[] | readonly DecodedEvent[],
): readonly DecodedEvent[] {
  const first = events[0];
  return first !== undefined && 'globalPosition' in first
    ? (events as readonly DecodedEvent[])
    : buildEvents(events as readonly GivenEvent[]);
}

export type ProjectionSpec = Readonly<{
  database: TestDatabase;
  /** Projector role: writes and sees every row. */
  projector: DataSource;
  /** API role: sees only the rows of the identity given to `asUser`. */
  app: DataSource;
  /** Builds events at positions 1, 2, … (see `buildEvents`). */
  events: (given: readonly GivenEvent[]) => DecodedEvent<DomainEvent>[];
  /** Empties the table, applies the events from position 1, returns the rows. */
  given: (
    events: readonly GivenEvent[] | readonly DecodedEvent[],
    options?: ApplyOptions,
  ) => Promise<Row[]>;
  /** Applies more events after those already applied (no reset), returns the rows. */
  when: (events: readonly GivenEvent[], options?: ApplyOptions) => Promise<Row[]>;
  /** Every row of the table (SELECT *), ordered by primary key. */
  rows: () => Promise<Row[]>;
  reset: () => Promise<void>;
  /** Runs `work` under RLS as this user (API role). */
  asUser: <T>(
    owner: Owner,
    work: (manager: EntityManager) => Promise<T>,
    roles?: readonly Role[],
  ) => Promise<T>;
  close: () => Promise<void>;
}>;

/**
 * Given events / then rows for one projection, against a fresh migrated database:
 *
 *   const spec = await projectionSpec(memoriesProjection);
 *   expect(await spec.given([{ type: 'MemoryCandidateDetected', data }])).toEqual([...rows]);
 *
 * Each batch runs `applyBatch` in its own transaction as the projector role, like the runner.
 */
export async function projectionSpec<R extends OwnedRow>(
  projection: RowProjection<R>,
): Promise<ProjectionSpec> {
  const database = await createTestDatabase();
  const projector = await createDataSource(
    database.projectorUrl,
    READ_MODEL_ENTITIES,
    2,
  ).initialize();
  const app = await createDataSource(database.appUrl, READ_MODEL_ENTITIES, 2).initialize();
  const metadata = projector.getMetadata(projection.entity);
  const orderBy = metadata.primaryColumns.map((column) => column.databaseName).join(', ');
  let lastPosition = 0n;

  const rows = () =>
    projector.query<Row[]>(`SELECT * FROM ${metadata.tableName} ORDER BY ${orderBy}`);

  const reset = async () => {
    await projector.manager.clear(projection.entity);
    lastPosition = 0n;
  };

  const apply = async (events: readonly DecodedEvent[], options: ApplyOptions = {}) => {
    const size = Math.max(1, options.batchSize ?? events.length);
    for (let start = 0; start < events.length; start += size) {
      const batch = events.slice(start, start + size);
      await projector.transaction((manager) => applyBatch(manager, projection, batch));
    }
    const last = events[events.length - 1];
    if (last && last.globalPosition > lastPosition) lastPosition = last.globalPosition;
  };

  return {
    database,
    projector,
    app,
    events: (given) => buildEvents(given),
    given: async (events, options) => {
      await reset();
      await apply(toDecoded(events), options);
      return rows();
    },
    when: async (events, options) => {
      await apply(buildEvents(events, lastPosition), options);
      return rows();
    },
    rows,
    reset,
    asUser: (owner, work, roles = ['user']) =>
      runAs(app, { workspaceId: owner.workspaceId, userId: owner.userId, roles }, work),
    close: async () => {
      await app.destroy();
      await projector.destroy();
      await database.drop();
    },
  };
}
