import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  RUNNING,
  START,
  STREAM_EXISTS,
  streamNameFilter,
} from '@eventstore/db-client';
import type {
  AppendExpectedRevision,
  Direction as EsdbDirection,
  Position,
  ReadRevision,
  RecordedEvent as EsdbRecordedEvent,
  ResolvedEvent as EsdbResolvedEvent,
} from '@eventstore/db-client';
import {
  EventStoreMisconfiguredError,
  StreamDeletedError,
  StreamNotFoundError,
  UserEventsBehindError,
  WrongExpectedVersionError,
} from '../errors';
import type {
  AppendOptions,
  AppendResult,
  EventRecord,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  ReadUserEventsOptions,
  RecordedEvent,
  SubscribeOptions,
  UnparsedEvent,
} from '../event-store.port';
import { unparseEvent } from '../unparsed-event';
import {
  CATEGORY_PROJECTION,
  checkCategoryProjection,
  type CategoryProjectionReport,
} from './category-projection-check';
import {
  collect,
  firstRevisionAfter,
  lastLinkedPosition,
  readLinks,
  waitForLink,
  type WaitBounds,
} from './category-stream';
import { isEsdbError, toAppendError, toStoreError } from './client-errors';
import {
  globalPositionOf,
  knownCommitPosition,
  requireEvent,
  serverFilter,
  toEventData,
  toRecordedEvent,
  toVisibleEvent,
  type ForeignEventHandler,
} from './engram-events';
import { toPhysicalStreamName, userCategory, userCategoryStream } from './physical-stream-name';
import { untilAborted } from './until-aborted';

const READ_PAGE_SIZE = 1000;
const HEAD_PAGE_SIZE = 100;
const PING_TIMEOUT_MS = 5000;

/** How long a per-user read waits for the category stream to reach a position, and how it polls. */
export const DEFAULT_CATEGORY_WAIT: WaitBounds = {
  timeoutMs: 5000,
  firstDelayMs: 20,
  maxDelayMs: 250,
};

export type EventStoreDbOptions = Readonly<{
  categoryWait?: Partial<WaitBounds>;
  /** Called for each foreign event skipped by readAll, subscribeToAll and readUserEvents. */
  onForeignEvent?: ForeignEventHandler;
}>;

/**
 * The event store port on EventStoreDB (gRPC client 6.x), for servers 22.6 or later: only from 22.6
 * on do events read from a stream carry their `$all` position.
 *
 * Requirements on the server (checked by `checkCategoryProjection` at startup and by `ping`):
 * - `readUserEvents` reads the `$ce-…` category streams of the standard `$by_category` projection,
 *   which must run with its standard separator (the first `-`): EVENTSTORE_RUN_PROJECTIONS=System
 *   and EVENTSTORE_START_STANDARD_PROJECTIONS=true.
 * - `readAll`, `subscribeToAll`, `headPosition` and `ping` read `$all`, which needs an admin user
 *   in the connection string (or an insecure node).
 *
 * Stream names are mapped by {@link toPhysicalStreamName}; callers only ever see logical names.
 * Client errors become the port's (`client-errors.ts`); events in Engram-like streams whose body is
 * not Engram's are skipped by the reads over many streams and reported to `onForeignEvent`.
 *
 * Where ESDB differs from the port's other adapters (ARCHITECTURE.md, "What each store guarantees"):
 * - `DuplicateEventIdError` is never raised: ESDB recognises a retried event id only at the same
 *   exact expected revision of the same stream; with `any` or `stream_exists` only within the
 *   server's in-memory window (lost on restart or failover), and a reused id with other content is
 *   taken as a success. Callers that need exactly-once append at an exact revision.
 * - The category stream trails the appends: a per-user read given `consistentThrough` waits for it.
 * - A tombstoned stream's events stay visible in `$all` (readAll, subscribeToAll) until a
 *   scavenge runs.
 * - One append is at most 1 MiB (the server's MaxAppendSize): AppendTooLargeError beyond.
 * - A subscription that loses its connection throws; resubscribing from the last position is the
 *   caller's job.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb';
  readonly userIndexLagBoundMs: number;
  private readonly categoryWait: WaitBounds;
  private readonly onForeignEvent: ForeignEventHandler;

  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbOptions = {},
  ) {
    this.categoryWait = { ...DEFAULT_CATEGORY_WAIT, ...options.categoryWait };
    this.userIndexLagBoundMs = this.categoryWait.timeoutMs;
    this.onForeignEvent = options.onForeignEvent ?? (() => undefined);
  }

  static fromConnectionString(
    connectionString: string,
    options?: EventStoreDbOptions,
  ): EventStoreDbEventStore {
    return new EventStoreDbEventStore(
      EventStoreDBClient.connectionString(connectionString),
      options,
    );
  }

  /** The startup check: refuses (EventStoreMisconfiguredError) a `$by_category` that will not do. */
  checkCategoryProjection(): Promise<CategoryProjectionReport> {
    return checkCategoryProjection(this.client, this.categoryWait);
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
      // No more than is still wanted (+1: the read starts at the cursor, returned already).
      const pageSize = Math.min(READ_PAGE_SIZE, limit - events.length + (cursor ? 1 : 0));
      const page = await collect(
        this.client.readAll({
          fromPosition: cursor ?? START,
          direction: FORWARDS,
          maxCount: pageSize,
          resolveLinkTos: false,
        }),
      ).catch((error: unknown) => {
        throw toStoreError(error);
      });
      for (const resolved of page) {
        const position = resolved.event?.position;
        // fromPosition is inclusive: the event at the cursor was returned (or excluded) already.
        if (position === undefined || !isAfter(position, cursor)) continue;
        cursor = position;
        const event = toVisibleEvent(resolved.event, options.filter, this.onForeignEvent);
        if (event === undefined) continue;
        events.push(event);
        if (events.length >= limit) return events;
      }
      if (page.length < pageSize) return events;
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    return this.follow(options);
  }

  /**
   * From the user's `$ce-…` category stream (links in `$all` order, written by `$by_category` a
   * little after the appends, missing until the user's first event): each page starts at the first
   * link past `after` (a binary search over link revisions), not at the start of the stream. With
   * `consistentThrough`, waits for the links to get there; with `whenBehind: 'scan'`, reads what
   * they lack from `$all` instead, filtered on the server by the user's stream prefix.
   */
  async readUserEvents(
    workspaceId: string,
    userId: string,
    options: ReadUserEventsOptions = {},
  ): Promise<RecordedEvent[]> {
    const stream = userCategoryStream(workspaceId, userId);
    const through = options.consistentThrough;
    const after = options.after === undefined || options.after === 'start' ? -1n : options.after;
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    if (through === undefined) return this.readLinkedEvents(stream, after, limit);
    if (options.whenBehind === 'scan') {
      // Whatever the links miss is after the last one linked now: read the links, then the rest.
      const linkedUpTo = (await lastLinkedPosition(this.client, stream)) ?? -1n;
      const linked = await this.readLinkedEvents(stream, after, limit);
      const covered = [after, linkedUpTo, linked.at(-1)?.globalPosition ?? -1n].reduce(max);
      if (linked.length >= limit || covered >= through) return linked;
      const prefix = `${userCategory(workspaceId, userId)}-`;
      return [...linked, ...(await this.scanAll(prefix, covered, through, limit - linked.length))];
    }
    const linked = await waitForLink(this.client, stream, through, this.categoryWait);
    if (!linked.reached) {
      throw new UserEventsBehindError(workspaceId, userId, through, linked.last, linked.waitedMs);
    }
    return this.readLinkedEvents(stream, after, limit);
  }

  /** The client parses every event's JSON: the text is made again from it. */
  async readUserEventsUnparsed(
    workspaceId: string,
    userId: string,
    options: ReadUserEventsOptions = {},
  ): Promise<UnparsedEvent[]> {
    return (await this.readUserEvents(workspaceId, userId, options)).map(unparseEvent);
  }

  async deleteStream(streamId: string): Promise<void> {
    try {
      // A tombstone (hard delete), not a soft delete: the name can never be written again.
      await this.client.tombstoneStream(toPhysicalStreamName(streamId), { expectedRevision: ANY });
    } catch (error) {
      if (isEsdbError(error, ErrorType.STREAM_DELETED, ErrorType.STREAM_NOT_FOUND)) return;
      throw toStoreError(error);
    }
  }

  /**
   * EventStoreDB has no transaction spanning the log to refuse new streams of an owner atomically,
   * so closing does nothing here: a new stream written by work in flight during an erasure (within
   * a process's data-key cache, 5 s) is not refused; its personal fields are sealed with the
   * destroyed key (ARCHITECTURE.md, store guarantees).
   */
  readonly closesOwnersAtomically = false;
  readonly recognisesRetriesAnywhere = false;

  async closeOwner(): Promise<void> {}

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
      ).catch((error: unknown) => {
        throw toStoreError(error);
      });
      let progressed = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        // Whether a backwards read includes the event at its start is not relied upon.
        if (position === undefined || (cursor !== undefined && !isAfter(cursor, position))) {
          continue;
        }
        cursor = position;
        progressed = true;
        if (toVisibleEvent(resolved.event, undefined, this.onForeignEvent) !== undefined) {
          return position.commit;
        }
      }
      if (!progressed || page.length < HEAD_PAGE_SIZE) return 0n;
    }
  }

  /** `$all` answers and `$by_category` runs (without it, per-user reads and erasure see nothing). */
  async ping(): Promise<void> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    await withTimeout(collect(read), PING_TIMEOUT_MS, () => read.cancel()).catch(
      (error: unknown) => {
        throw toStoreError(error);
      },
    );
    const details = await this.client
      .getProjectionStatus(CATEGORY_PROJECTION)
      .catch((error: unknown) => {
        throw new EventStoreMisconfiguredError(
          `EventStoreDB: ${CATEGORY_PROJECTION} cannot be read (${String(toStoreError(error))})`,
        );
      });
    if (details.projectionStatus !== RUNNING) {
      throw new EventStoreMisconfiguredError(
        `EventStoreDB: ${CATEGORY_PROJECTION} is ${details.projectionStatus}, not ${RUNNING}: ` +
          "per-user reads and erasure cannot see users' events",
      );
    }
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
      const event = toVisibleEvent(resolved.event, options.filter, this.onForeignEvent);
      if (event !== undefined) yield event;
    }
  }

  private async readLinkedEvents(
    stream: string,
    after: bigint,
    limit: number,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    let fromRevision = after < 0n ? 0n : await firstRevisionAfter(this.client, stream, after);
    for (;;) {
      const page = await readLinks(this.client, stream, fromRevision, READ_PAGE_SIZE);
      for (const resolved of page) {
        fromRevision = linkRevision(resolved) + 1n;
        const event = toVisibleEvent(resolved.event, undefined, this.onForeignEvent);
        if (event === undefined || event.globalPosition <= after) continue;
        events.push(event);
        if (events.length >= limit) return events;
      }
      if (page.length < READ_PAGE_SIZE) return events;
    }
  }

  /**
   * The events of streams starting with `physicalPrefix` after `after` up to `through`, from `$all`
   * through a subscription the server filters (reads cannot filter in client 6.x): it ends at the
   * first event or checkpoint at or past `through`, or when `limit` events were read.
   */
  private async scanAll(
    physicalPrefix: string,
    after: bigint,
    through: bigint,
    limit: number,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const done = new AbortController();
    const subscription = this.client.subscribeToAll({
      fromPosition: positionAfter(after < 0n ? 'start' : after) ?? START,
      resolveLinkTos: false,
      filter: streamNameFilter({
        prefixes: [physicalPrefix],
        checkpointReached: (_, position) => {
          if (position.commit >= through) done.abort();
        },
      }),
    });
    for await (const resolved of untilAborted(subscription, done.signal)) {
      const position = resolved.event?.position?.commit;
      if (position === undefined || position <= after) continue;
      const event = toVisibleEvent(resolved.event, undefined, this.onForeignEvent);
      if (event !== undefined && position <= through) events.push(event);
      if (position >= through || events.length >= limit) break;
    }
    return events;
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
      throw toStoreError(error);
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
      throw toStoreError(error);
    }
  }
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

function ignore(): void {}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function linkRevision(resolved: EsdbResolvedEvent): bigint {
  const record = resolved.link ?? resolved.event;
  if (record === undefined) throw new Error('EventStoreDB returned a read result without an event');
  return record.revision;
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
