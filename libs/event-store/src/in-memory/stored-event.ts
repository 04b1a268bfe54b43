import type { EventFilter, EventRecord, RecordedEvent } from '../event-store.port';

/**
 * An event as the in-memory store keeps it: data and metadata as JSON text, so that nobody holding an
 * object given to or read from the store can change what it holds, and so that what PostgreSQL's
 * jsonb cannot keep behaves as it does there (a Date becomes its ISO string, an undefined field
 * disappears, a bigint is refused).
 */
export type StoredEvent = Readonly<{
  eventId: string;
  type: string;
  schemaVersion: number;
  data: string;
  metadata: string;
  streamId: string;
  streamRevision: bigint;
  globalPosition: bigint;
  recordedAt: number;
}>;

export type EventPlace = Readonly<{
  streamId: string;
  streamRevision: bigint;
  globalPosition: bigint;
  recordedAt: number;
}>;

/** The JSON text of a record, taken before anything is written: a refused payload writes nothing. */
export function serialize(record: EventRecord): Pick<StoredEvent, 'data' | 'metadata'> {
  return { data: JSON.stringify(record.data), metadata: JSON.stringify(record.metadata) };
}

export function storedEvent(
  record: EventRecord,
  payload: Pick<StoredEvent, 'data' | 'metadata'>,
  place: EventPlace,
): StoredEvent {
  return {
    eventId: record.eventId,
    type: record.type,
    schemaVersion: record.schemaVersion,
    ...payload,
    ...place,
  };
}

/** A fresh copy for each reader. */
export function readCopy(stored: StoredEvent): RecordedEvent {
  return {
    eventId: stored.eventId,
    type: stored.type,
    schemaVersion: stored.schemaVersion,
    data: JSON.parse(stored.data) as Record<string, unknown>,
    metadata: JSON.parse(stored.metadata) as Record<string, unknown>,
    streamId: stored.streamId,
    streamRevision: stored.streamRevision,
    globalPosition: stored.globalPosition,
    recordedAt: new Date(stored.recordedAt),
  };
}

/** No prefixes (or an empty list) means no constraint, as in the other adapters. */
export function passesFilter(stored: StoredEvent, filter: EventFilter | undefined): boolean {
  const startsWithOne = (value: string, prefixes: readonly string[] | undefined) =>
    !prefixes?.length || prefixes.some((prefix) => value.startsWith(prefix));
  return (
    startsWithOne(stored.type, filter?.eventTypePrefixes) &&
    startsWithOne(stored.streamId, filter?.streamPrefixes)
  );
}
