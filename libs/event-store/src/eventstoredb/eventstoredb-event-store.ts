import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  eventTypeFilter,
  excludeSystemEvents,
  isCommandError,
  jsonEvent,
} from '@eventstore/db-client';
import type {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendExpectedRevision,
  Direction as EsdbDirection,
  EventData,
  Filter,
  Position,
  ReadRevision,
  RecordedEvent as EsdbRecordedEvent,
  ResolvedEvent as EsdbResolvedEvent,
  StreamingRead,
} from '@eventstore/db-client';
import { StreamDeletedError, StreamNotFoundError, WrongExpectedVersionError } from '../errors';
import type {
  AppendOptions,
  AppendResult,
  EventFilter,
  EventRecord,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
} from '../event-store.port';
import {
  toLogicalStreamName,
  toPhysicalStreamName,
  userCategoryStream,
} from './physical-stream-name';

const SCHEMA_VERSION_KEY = 'schemaVersion';
const READ_PAGE_SIZE = 1000;
const HEAD_PAGE_SIZE = 100;
const PING_TIMEOUT_MS = 5000;
/** ESDB sends 2^64-1 for a position it does not know (stream reads on servers older than 22.6). */
const UNKNOWN_POSITION = 0xffff_ffff_ffff_ffffn;
const ABORTED = Symbol('aborted');

/**
 * The event store port on EventStoreDB (gRPC client 6.x), for servers 22.6 or later: only from 22.6
 * on do events read from a stream carry their `$all` position.
 *
 * Requirements on the server:
 * - `readUserEvents` reads the `$ce-…` category streams of the standard `$by_category` projection,
 *   so projections must run: EVENTSTORE_RUN_PROJECTIONS=All and
 *   EVENTSTORE_START_STANDARD_PROJECTIONS=true.
 * - `readAll`, `subscribeToAll`, `headPosition` and `ping` read `$all`, which needs an admin user
 *   in the connection string (or an insecure node).
 *
 * Stream names are mapped by {@link toPhysicalStreamName}; callers only ever see logical names.
 *
 * Where ESDB differs from the port's other adapter:
 * - `DuplicateEventIdError` is never raised: ESDB only recognises a retried event id at the same
 *   expected revision of the same stream (and only best-effort with `any`).
 * - A tombstoned stream's events stay visible in `$all` (readAll, subscribeToAll) until a
 *   scavenge runs.
 * - A subscription that loses its connection throws; resubscribing from the last position is the
 *   caller's job.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb';

  constructor(private readonly client: EventStoreDBClient) {}

  static fromConnectionString(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async appendToStream(
    streamId: string,
    events: readonly EventRecord[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const stream = toPhysicalStreamName(streamId);
    const expected = options.expectedRevision;
    if (events.length === 0) return this.checkRevisionWithoutAppending(streamId, stream, expected);
    // A retry of the same event ids at the same expected revision succeeds again without writing:
    // ESDB's own idempotence, which then reports the revision of the events already there.
    const result = await this.client
      .appendToStream(stream, events.map(toEventData), {
        expectedRevision: toEsdbExpectedRevision(expected),
      })
      .catch((error: unknown) => {
        throw toAppendError(error, streamId, expected);
      });
    const position =
      knownCommitPosition(result.position) ??
      (await this.positionOfRevision(streamId, stream, result.nextExpectedRevision));
    return { nextExpectedRevision: result.nextExpectedRevision, position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const stream = toPhysicalStreamName(streamId);
    const direction: EsdbDirection = options.direction === 'backwards' ? BACKWARDS : FORWARDS;
    if (options.maxCount !== undefined && options.maxCount <= 0) {
      await this.readStreamOrThrow(
        streamId,
        stream,
        direction,
        toReadRevision(undefined, direction),
        1,
      );
      return [];
    }
    const page = await this.readStreamOrThrow(
      streamId,
      stream,
      direction,
      toReadRevision(options.fromRevision, direction),
      options.maxCount,
    );
    return page.map((resolved) => toRecordedEvent(requireEvent(resolved), streamId));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    let cursor = positionAfter(options.after);
    for (;;) {
      const page = await collect(
        this.client.readAll({
          fromPosition: cursor ?? START,
          direction: FORWARDS,
          maxCount: READ_PAGE_SIZE,
          resolveLinkTos: false,
        }),
      );
      for (const resolved of page) {
        const position = resolved.event?.position;
        // fromPosition is inclusive: the event at the cursor was returned (or excluded) already.
        if (position === undefined || !isAfter(position, cursor)) continue;
        cursor = position;
        const event = toVisibleEvent(resolved, options.filter);
        if (event === undefined) continue;
        events.push(event);
        if (events.length >= limit) return events;
      }
      if (page.length < READ_PAGE_SIZE) return events;
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    return this.follow(options);
  }

  async readUserEvents(
    workspaceId: string,
    userId: string,
    options: Readonly<{ after?: bigint | 'start'; maxCount?: number }> = {},
  ): Promise<RecordedEvent[]> {
    // `$ce-{category}` is written by the standard `$by_category` projection (see the class
    // comment): links in `$all` order, a little behind the appends, missing until the first event.
    const stream = userCategoryStream(workspaceId, userId);
    const after = options.after === undefined || options.after === 'start' ? -1n : options.after;
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    let fromRevision = 0n;
    for (;;) {
      const page = await this.readLinks(stream, fromRevision);
      for (const resolved of page) {
        fromRevision = linkRevision(resolved) + 1n;
        const event = toUserEvent(resolved);
        if (event === undefined || event.globalPosition <= after) continue;
        events.push(event);
        if (events.length >= limit) return events;
      }
      if (page.length < READ_PAGE_SIZE) return events;
    }
  }

  async deleteStream(streamId: string): Promise<void> {
    try {
      // A tombstone (hard delete), not a soft delete: the name can never be written again.
      await this.client.tombstoneStream(toPhysicalStreamName(streamId), { expectedRevision: ANY });
    } catch (error) {
      if (isEsdbError(error, ErrorType.STREAM_DELETED, ErrorType.STREAM_NOT_FOUND)) return;
      throw error;
    }
  }

  async headPosition(): Promise<bigint> {
    let cursor: Position | undefined;
    for (;;) {
      const page = await collect(
        this.client.readAll({
          fromPosition: cursor ?? END,
          direction: BACKWARDS,
          maxCount: HEAD_PAGE_SIZE,
          resolveLinkTos: false,
        }),
      );
      let progressed = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        // Whether a backwards read includes the event at its start is not relied upon.
        if (position === undefined || (cursor !== undefined && !isAfter(cursor, position))) {
          continue;
        }
        cursor = position;
        progressed = true;
        if (toVisibleEvent(resolved, undefined) !== undefined) return position.commit;
      }
      if (!progressed || page.length < HEAD_PAGE_SIZE) return 0n;
    }
  }

  async ping(): Promise<void> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    await withTimeout(collect(read), PING_TIMEOUT_MS, () => read.cancel());
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  private async *follow(options: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    if (options.signal?.aborted === true) return;
    let cursor = positionAfter(options.after);
    const subscription = this.client.subscribeToAll({
      fromPosition: cursor ?? START,
      resolveLinkTos: false,
      filter: serverFilter(options.filter),
    });
    for await (const resolved of untilAborted(subscription, options.signal)) {
      const position = resolved.event?.position;
      // The subscription start is exclusive already; the check also guards against a redelivery.
      if (position === undefined || !isAfter(position, cursor)) continue;
      cursor = position;
      const event = toVisibleEvent(resolved, options.filter);
      if (event !== undefined) yield event;
    }
  }

  private async readStreamOrThrow(
    streamId: string,
    stream: string,
    direction: EsdbDirection,
    fromRevision: ReadRevision,
    maxCount: number | undefined,
  ): Promise<EsdbResolvedEvent[]> {
    try {
      return await collect(this.client.readStream(stream, { direction, fromRevision, maxCount }));
    } catch (error) {
      // ESDB answers StreamNotFound for a missing stream and StreamDeleted for a tombstoned one.
      if (isEsdbError(error, ErrorType.STREAM_NOT_FOUND, ErrorType.STREAM_DELETED)) {
        throw new StreamNotFoundError(streamId);
      }
      throw error;
    }
  }

  private async readLinks(stream: string, fromRevision: bigint): Promise<EsdbResolvedEvent[]> {
    try {
      return await collect(
        this.client.readStream(stream, {
          direction: FORWARDS,
          fromRevision,
          maxCount: READ_PAGE_SIZE,
          resolveLinkTos: true,
        }),
      );
    } catch (error) {
      if (isEsdbError(error, ErrorType.STREAM_NOT_FOUND)) return [];
      throw error;
    }
  }

  /** The position of the event at `revision`: ESDB answers an idempotent retry without one. */
  private async positionOfRevision(
    streamId: string,
    stream: string,
    revision: bigint,
  ): Promise<bigint> {
    const [resolved] = await this.readStreamOrThrow(streamId, stream, FORWARDS, revision, 1);
    if (resolved === undefined) {
      throw new Error(`EventStoreDB stream ${streamId} has no event at revision ${revision}`);
    }
    return globalPositionOf(requireEvent(resolved));
  }

  /** ESDB cannot append nothing and still check the expected revision, so check it by reading. */
  private async checkRevisionWithoutAppending(
    streamId: string,
    stream: string,
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const last = await this.lastEvent(streamId, stream);
    const actual = last?.revision ?? 'no_stream';
    if (!satisfies(expected, actual)) {
      throw new WrongExpectedVersionError(streamId, expected, actual);
    }
    return {
      nextExpectedRevision: last?.revision ?? -1n,
      position: last === undefined ? 0n : globalPositionOf(last),
    };
  }

  private async lastEvent(
    streamId: string,
    stream: string,
  ): Promise<EsdbRecordedEvent | undefined> {
    try {
      const [resolved] = await collect(
        this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
      );
      return resolved === undefined ? undefined : requireEvent(resolved);
    } catch (error) {
      if (isEsdbError(error, ErrorType.STREAM_NOT_FOUND)) return undefined;
      if (isEsdbError(error, ErrorType.STREAM_DELETED)) throw new StreamDeletedError(streamId);
      throw error;
    }
  }
}

function toEventData(record: EventRecord): EventData {
  return jsonEvent({
    id: record.eventId,
    type: record.type,
    data: record.data,
    // schemaVersion travels in the metadata (ESDB has no field for it) and is stripped on read,
    // so a caller's own `schemaVersion` metadata key would not survive the round trip.
    metadata: { ...record.metadata, [SCHEMA_VERSION_KEY]: record.schemaVersion },
  });
}

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return expected;
  }
}

function toAppendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (!(error instanceof Error) || !isCommandError(error)) return error;
  switch (error.type) {
    case ErrorType.WRONG_EXPECTED_VERSION:
      return new WrongExpectedVersionError(streamId, expected, error.actualVersion);
    case ErrorType.STREAM_DELETED:
      return new StreamDeletedError(streamId);
    default:
      return error;
  }
}

function satisfies(expected: ExpectedRevision, actual: bigint | 'no_stream'): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return actual === expected;
  }
}

function isEsdbError(error: unknown, ...types: readonly ErrorType[]): boolean {
  return error instanceof Error && isCommandError(error) && types.includes(error.type);
}

function toReadRevision(
  from: ReadStreamOptions['fromRevision'],
  direction: EsdbDirection,
): ReadRevision {
  if (from === undefined) return direction === BACKWARDS ? END : START;
  if (from === 'start') return START;
  if (from === 'end') return END;
  return from;
}

/** Reads start at a position inclusively; `after` is exclusive, so it becomes the first cursor. */
function positionAfter(after: bigint | 'start' | undefined): Position | undefined {
  return after === undefined || after === 'start' ? undefined : { commit: after, prepare: after };
}

/** Strictly later in `$all` than `cursor` (no cursor: everything is). */
function isAfter(position: Position, cursor: Position | undefined): boolean {
  if (cursor === undefined) return true;
  if (position.commit !== cursor.commit) return position.commit > cursor.commit;
  return position.prepare > cursor.prepare;
}

function knownCommitPosition(position: Position | undefined): bigint | undefined {
  const commit = position?.commit;
  return commit === undefined || commit < 0n || commit >= UNKNOWN_POSITION ? undefined : commit;
}

function globalPositionOf(event: EsdbRecordedEvent): bigint {
  const position = knownCommitPosition(event.position);
  if (position === undefined) {
    throw new Error(
      `EventStoreDB returned event ${event.id} without its $all position (needs server 22.6+)`,
    );
  }
  return position;
}

function requireEvent(resolved: EsdbResolvedEvent): EsdbRecordedEvent {
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

function toRecordedEvent(event: EsdbRecordedEvent, streamId: string): RecordedEvent {
  if (!event.isJson || !isJsonObject(event.data)) {
    throw new Error(`EventStoreDB event ${event.id} in ${event.streamId} is not a JSON object`);
  }
  const { [SCHEMA_VERSION_KEY]: schemaVersion, ...metadata } = isJsonObject(event.metadata)
    ? event.metadata
    : {};
  if (typeof schemaVersion !== 'number') {
    throw new Error(
      `EventStoreDB event ${event.id} in ${event.streamId} has no schemaVersion metadata`,
    );
  }
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

/** An event of `$all` as callers see it; undefined for system, foreign or filtered-out events. */
function toVisibleEvent(
  resolved: AllStreamResolvedEvent,
  filter: EventFilter | undefined,
): RecordedEvent | undefined {
  const event = resolved.event;
  if (event === undefined || isSystemEvent(event)) return undefined;
  const streamId = toLogicalStreamName(event.streamId);
  if (streamId === undefined || !matches(filter, event.type, streamId)) return undefined;
  return toRecordedEvent(event, streamId);
}

function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
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

/** What the server can filter; stream prefixes are logical, so they are matched client-side. */
function serverFilter(filter: EventFilter | undefined): Filter {
  const prefixes = filter?.eventTypePrefixes;
  return prefixes !== undefined && prefixes.length > 0
    ? eventTypeFilter({ prefixes: [...prefixes] })
    : excludeSystemEvents();
}

/** The event behind a `$ce-…` link; undefined when it points to a deleted event. */
function toUserEvent(resolved: EsdbResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (event === undefined || isSystemEvent(event)) return undefined;
  const streamId = toLogicalStreamName(event.streamId);
  return streamId === undefined ? undefined : toRecordedEvent(event, streamId);
}

function linkRevision(resolved: EsdbResolvedEvent): bigint {
  const record = resolved.link ?? resolved.event;
  if (record === undefined) throw new Error('EventStoreDB returned a read result without an event');
  return record.revision;
}

async function collect<T>(read: StreamingRead<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

function ignore(): void {}

/** Resolves when the signal aborts (never without a signal); `dispose` removes the listener. */
function abortion(signal: AbortSignal | undefined): {
  promise: Promise<typeof ABORTED>;
  dispose: () => void;
} {
  if (signal === undefined) return { promise: new Promise(ignore), dispose: ignore };
  let onAbort: () => void = ignore;
  const promise = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * The subscription's events until it ends, fails or the signal aborts; always unsubscribes.
 * Racing each `next()` against the signal ends the loop at once, even while no event arrives.
 */
async function* untilAborted(
  subscription: AllStreamSubscription,
  signal: AbortSignal | undefined,
): AsyncGenerator<AllStreamResolvedEvent> {
  const iterator = subscription[Symbol.asyncIterator]();
  const abort = abortion(signal);
  try {
    while (signal?.aborted !== true) {
      const next = iterator.next();
      const result = await Promise.race([next, abort.promise]);
      if (result === ABORTED) {
        next.catch(ignore);
        return;
      }
      if (result.done === true) return;
      yield result.value;
    }
  } finally {
    abort.dispose();
    // Nobody reads the stream any more: a late error must not become an uncaught exception.
    subscription.on('error', ignore);
    // Unsubscribing fails if the subscription never connected; the original error matters more.
    await subscription.unsubscribe().catch(ignore);
  }
}

async function withTimeout<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => Promise<void>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout().catch(ignore);
      reject(new Error(`EventStoreDB did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(ignore);
  }
}
