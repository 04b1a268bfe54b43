/** A stored event, as the store knows it: opaque JSON data and metadata. The codec maps it to domain events. */
export type EventRecord = Readonly<{
  eventId: string;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}>;

export type RecordedEvent = EventRecord &
  Readonly<{
    streamId: string;
    /** 0-based revision of the event within its stream. */
    streamRevision: bigint;
    /** Position in the global order of the store; strictly increasing in the order subscribers see. */
    globalPosition: bigint;
    recordedAt: Date;
  }>;

/**
 * A recorded event whose data and metadata are still their stored JSON text: what a reader that hands
 * events to another thread reads (the export's render thread parses them there; BENCHMARKS.md round
 * 15). `parseUnparsedEvent` (in `unparsed-event.ts`) makes it a `RecordedEvent`.
 */
export type UnparsedEvent = Omit<RecordedEvent, 'data' | 'metadata'> &
  Readonly<{ data: string; metadata: string }>;

export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export type AppendOptions = Readonly<{ expectedRevision: ExpectedRevision }>;

export type AppendResult = Readonly<{
  /** Revision of the last event of the stream after the append. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written (or already present, for an idempotent retry). */
  position: bigint;
  /**
   * True when every event was already stored (an idempotent retry: nothing written), false when they
   * were written now; absent when the adapter cannot tell.
   */
  alreadyStored?: boolean;
}>;

export type Direction = 'forwards' | 'backwards';

export type ReadStreamOptions = Readonly<{
  direction?: Direction;
  /** First revision to read (inclusive); defaults to the start (forwards) or the end (backwards). */
  fromRevision?: bigint | 'start' | 'end';
  maxCount?: number;
}>;

export type EventFilter = Readonly<{
  eventTypePrefixes?: readonly string[];
  streamPrefixes?: readonly string[];
}>;

export type ReadAllOptions = Readonly<{
  /** Read the events strictly after this position ('start' = from the first). */
  after?: bigint | 'start';
  maxCount?: number;
  filter?: EventFilter;
}>;

export type ReadUserEventsOptions = Readonly<{
  /** Read the events strictly after this position ('start' = from the first). */
  after?: bigint | 'start';
  maxCount?: number;
  /**
   * Read-your-writes: the answer holds every event of the user up to this position, which must be the
   * position of one of the user's own events (an append the caller has just made). A store whose
   * per-user index trails the appends (EventStoreDB's category stream) waits for it, bounded, then
   * throws UserEventsBehindError rather than answer short; the others answer at once.
   */
  consistentThrough?: bigint;
  /**
   * What such a store does when its index has not reached `consistentThrough`: `wait` (the
   * default, see above), or `scan` at once the global log after what the index holds, on the
   * server: erasure, which must find every stream of the user whatever the lag. The scan starts at
   * the user's last linked event, so its cost is bound by how long ago that was (a user inactive for
   * months scans months of the log, filtered on the server), not by the index's lag alone.
   */
  whenBehind?: 'wait' | 'scan';
}>;

export type SubscribeOptions = Readonly<{
  after?: bigint | 'start';
  filter?: EventFilter;
  signal?: AbortSignal;
}>;

/** The one port every event store adapter implements; `test/contract` runs the same suite against each. */
export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb' | 'in-memory';
  /**
   * How long a user's newest events may stay out of `readUserEvents` (without `consistentThrough`)
   * after their append, in milliseconds: absent for the stores whose per-user read is current
   * (PostgreSQL, in-memory); EventStoreDB's category links trail the appends, up to this bound.
   */
  readonly userIndexLagBoundMs?: number;
  appendToStream(
    streamId: string,
    events: readonly EventRecord[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  /** Throws StreamNotFoundError when the stream does not exist or was deleted. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catches up from `after`, then follows live appends, until the signal aborts. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent>;
  /**
   * Every event of one user's streams (names starting with `{workspaceId}/{userId}/`), in global order,
   * at a cost bound by that user's own events, not by the size of the store.
   */
  readUserEvents(
    workspaceId: string,
    userId: string,
    options?: ReadUserEventsOptions,
  ): Promise<RecordedEvent[]>;
  /** `readUserEvents`, each event's data and metadata left as their JSON text. */
  readUserEventsUnparsed(
    workspaceId: string,
    userId: string,
    options?: ReadUserEventsOptions,
  ): Promise<UnparsedEvent[]>;
  deleteStream(streamId: string): Promise<void>;
  /**
   * Closes a user's streams to new ones (an erasure): from now on creating a stream of
   * `{workspaceId}/{userId}/` whose name starts with none of `keep` fails with StreamDeletedError,
   * while existing streams take appends until they are deleted. Idempotent. Atomic with appends on PostgreSQL and in memory;
   * `closesOwnersAtomically` is false where it is not (EventStoreDB: closing does nothing there).
   */
  closeOwner(workspaceId: string, userId: string, keep: readonly string[]): Promise<void>;
  readonly closesOwnersAtomically?: boolean;
  /**
   * True where a stored event id is recognised at any expected revision, for ever (PostgreSQL, in
   * memory: `DuplicateEventIdError` or the first result); false where only at the same exact revision
   * (EventStoreDB). Lets an exactly-once log append skip reading its stream first (`handleCommand`).
   */
  readonly recognisesRetriesAnywhere?: boolean;
  /** Position of the last event in the store (0n when empty). */
  headPosition(): Promise<bigint>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
