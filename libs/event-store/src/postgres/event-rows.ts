import type { EventFilter, RecordedEvent } from '../event-store.port';

/** An events row as pg parses it; `Json` is what data and metadata come as (parsed, or their text). */
export type EventRow<Json = Record<string, unknown>> = {
  global_position: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: Json;
  metadata: Json;
  recorded_at: Date;
};

export type UnparsedEventRow = EventRow<string>;

export const EVENT_COLUMNS =
  'global_position, stream_id, stream_revision, event_id, type, schema_version, data, metadata, recorded_at';

/** The same columns, data and metadata as text: pg parses jsonb, not text. */
export const UNPARSED_EVENT_COLUMNS =
  'global_position, stream_id, stream_revision, event_id, type, schema_version, data::text AS data, metadata::text AS metadata, recorded_at';

/** A `RecordedEvent`, or an `UnparsedEvent` from an `UnparsedEventRow`. */
export function toRecordedEvent<Json>(
  row: EventRow<Json>,
): Omit<RecordedEvent, 'data' | 'metadata'> & Readonly<{ data: Json; metadata: Json }> {
  return {
    eventId: row.event_id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    streamRevision: BigInt(row.stream_revision),
    globalPosition: BigInt(row.global_position),
    recordedAt: row.recorded_at,
  };
}

function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL conditions for a filter, with their parameters appended after `params`. */
export function filterConditions(filter: EventFilter | undefined, params: unknown[]): string[] {
  const conditions: string[] = [];
  if (filter?.eventTypePrefixes?.length) {
    params.push(filter.eventTypePrefixes.map(likePrefix));
    conditions.push(`type LIKE ANY($${params.length}::text[])`);
  }
  if (filter?.streamPrefixes?.length) {
    params.push(filter.streamPrefixes.map(likePrefix));
    conditions.push(`stream_id LIKE ANY($${params.length}::text[])`);
  }
  return conditions;
}

export function positionAfter(after: bigint | 'start' | undefined): string {
  return after === undefined || after === 'start' ? '0' : after.toString();
}
