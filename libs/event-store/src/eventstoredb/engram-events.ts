import {
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import type {
  EventData,
  Filter,
  Position,
  RecordedEvent as EsdbRecordedEvent,
  ResolvedEvent as EsdbResolvedEvent,
} from '@eventstore/db-client';
import type { EventFilter, EventRecord, RecordedEvent } from '../event-store.port';
import { toLogicalStreamName, toPhysicalStreamPrefixes } from './physical-stream-name';

/** Events mapped between the port's records and EventStoreDB's, and told apart from others' events. */

const SCHEMA_VERSION_KEY = 'schemaVersion';
/** ESDB sends 2^64-1 for a position it does not know (stream reads on servers older than 22.6). */
const UNKNOWN_POSITION = 0xffff_ffff_ffff_ffffn;

/**
 * An event in a stream named like Engram's whose body is not Engram's (another tool writing to a
 * shared cluster): skipped by the reads over many streams, and reported.
 */
export type ForeignEvent = Readonly<{ streamName: string; eventId: string; reason: string }>;

export type ForeignEventHandler = (event: ForeignEvent) => void;

export function toEventData(record: EventRecord): EventData {
  return jsonEvent({
    id: record.eventId,
    type: record.type,
    data: record.data,
    // schemaVersion travels in the metadata (ESDB has no field for it) and is stripped on read,
    // so a caller's own `schemaVersion` metadata key would not survive the round trip.
    metadata: { ...record.metadata, [SCHEMA_VERSION_KEY]: record.schemaVersion },
  });
}

export function knownCommitPosition(position: Position | undefined): bigint | undefined {
  const commit = position?.commit;
  return commit === undefined || commit < 0n || commit >= UNKNOWN_POSITION ? undefined : commit;
}

export function globalPositionOf(event: EsdbRecordedEvent): bigint {
  const position = knownCommitPosition(event.position);
  if (position === undefined) {
    throw new Error(
      `EventStoreDB returned event ${event.id} without its $all position (needs server 22.6+)`,
    );
  }
  return position;
}

export function requireEvent(resolved: EsdbResolvedEvent): EsdbRecordedEvent {
  if (resolved.event === undefined) {
    throw new Error('EventStoreDB returned a read result without an event');
  }
  return resolved.event;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array)
  );
}

/** The port's event, or why this body is not one Engram wrote. */
export function parseEngramEvent(
  event: EsdbRecordedEvent,
  streamId: string,
): RecordedEvent | { foreign: string } {
  if (!event.isJson || !isJsonObject(event.data)) return { foreign: 'data is not a JSON object' };
  const { [SCHEMA_VERSION_KEY]: schemaVersion, ...metadata } = isJsonObject(event.metadata)
    ? event.metadata
    : {};
  if (typeof schemaVersion !== 'number') return { foreign: 'no schemaVersion in its metadata' };
  return {
    eventId: event.id,
    type: event.type,
    schemaVersion,
    data: event.data,
    metadata,
    streamId,
    streamRevision: event.revision,
    globalPosition: globalPositionOf(event),
    recordedAt: event.created,
  };
}

/** For a read of one named stream: a body that is not Engram's is an error there, not a skip. */
export function toRecordedEvent(event: EsdbRecordedEvent, streamId: string): RecordedEvent {
  const parsed = parseEngramEvent(event, streamId);
  if ('foreign' in parsed) {
    throw new Error(`EventStoreDB event ${event.id} in ${event.streamId}: ${parsed.foreign}`);
  }
  return parsed;
}

export function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * An event of `$all` (or behind a category link) as callers see it; undefined for system events,
 * streams Engram never names, what the filter leaves out, and foreign bodies (reported).
 */
export function toVisibleEvent(
  event: EsdbRecordedEvent | undefined,
  filter: EventFilter | undefined,
  onForeign: ForeignEventHandler,
): RecordedEvent | undefined {
  if (event === undefined || isSystemEvent(event)) return undefined;
  const streamId = toLogicalStreamName(event.streamId);
  if (streamId === undefined || !matches(filter, event.type, streamId)) return undefined;
  const parsed = parseEngramEvent(event, streamId);
  if (!('foreign' in parsed)) return parsed;
  onForeign({ streamName: event.streamId, eventId: event.id, reason: parsed.foreign });
  return undefined;
}

function matches(filter: EventFilter | undefined, type: string, streamId: string): boolean {
  return (
    startsWithAny(type, filter?.eventTypePrefixes) &&
    startsWithAny(streamId, filter?.streamPrefixes)
  );
}

/** No prefixes (or an empty list) means no constraint. */
function startsWithAny(value: string, prefixes: readonly string[] | undefined): boolean {
  return (
    prefixes === undefined ||
    prefixes.length === 0 ||
    prefixes.some((prefix) => value.startsWith(prefix))
  );
}

/**
 * What the server filters (one filter only): the stream prefixes, mapped to physical ones, or else
 * the type prefixes, or else system events out. The client still matches both exactly.
 */
export function serverFilter(filter: EventFilter | undefined): Filter {
  const streams = filter?.streamPrefixes;
  if (streams !== undefined && streams.length > 0) {
    return streamNameFilter({ prefixes: [...new Set(streams.flatMap(toPhysicalStreamPrefixes))] });
  }
  const types = filter?.eventTypePrefixes;
  return types !== undefined && types.length > 0
    ? eventTypeFilter({ prefixes: [...types] })
    : excludeSystemEvents();
}
