import { PassThrough, Readable } from 'node:stream';
import {
  AccessDeniedError,
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  StreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type {
  AllStreamResolvedEvent,
  AppendExpectedRevision,
  EventData,
  EventStoreDBClient,
  Filter,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  ResolvedEvent,
  SubscribeToAllOptions,
} from '@eventstore/db-client';

/**
 * The part of `EventStoreDBClient` that `EventStoreDbEventStore` calls, over an in-memory model of
 * what the server does that the adapter depends on: `$all` positions, expected revisions and their
 * idempotency window, tombstones that stay in `$all` until a scavenge, the 1 MiB append limit, the
 * `$by_category` projection writing `$ce-…` links after the events (lagging, stopped, or splitting
 * names at another separator), links to deleted events, inclusive `$all` reads and exclusive
 * subscriptions with the server's filters, and each transport error. It stands in for a server in
 * the unit project; it says nothing about a real server beyond what it models.
 */

type Stored = {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  position: bigint;
  isJson: boolean;
  data: unknown;
  metadata: unknown;
  created: Date;
};

type Method =
  | 'appendToStream'
  | 'readStream'
  | 'readAll'
  | 'subscribeToAll'
  | 'tombstoneStream'
  | 'getProjectionStatus';

export type TransportFailure = 'deadline' | 'unavailable' | 'not-leader' | 'access-denied';

const POSITION_STEP = 100n;
const LINK = '$>';
const ONE_MIB = 1024 * 1024;

function transportError(kind: TransportFailure): Error {
  switch (kind) {
    case 'deadline':
      return new DeadlineExceededError();
    case 'unavailable':
      return new UnavailableError();
    case 'access-denied':
      return new AccessDeniedError();
    case 'not-leader':
      return new NotLeaderError({
        metadata: {
          getMap: () => ({ 'leader-endpoint-host': 'node-2', 'leader-endpoint-port': '2113' }),
        },
      } as unknown as ConstructorParameters<typeof NotLeaderError>[0]);
  }
}

function streamingRead<T>(items: readonly T[]): Readable & { cancel(): Promise<void> } {
  return Object.assign(Readable.from(items), { cancel: () => Promise.resolve() });
}

function failingRead(error: Error): Readable & { cancel(): Promise<void> } {
  const read = new PassThrough({ objectMode: true });
  process.nextTick(() => read.destroy(error));
  return Object.assign(read, { cancel: () => Promise.resolve() });
}

function passesFilter(event: Stored, filter: Filter | undefined): boolean {
  if (filter === undefined) return true;
  const value = filter.filterOn === 'streamName' ? event.streamId : event.type;
  if ('prefixes' in filter) return filter.prefixes.some((prefix) => value.startsWith(prefix));
  return new RegExp(filter.regex).test(value);
}

export class FakeEventStoreDbClient {
  /** `$all`, in order; links written by the category projection are events of it too. */
  readonly log: Stored[] = [];
  private readonly streams = new Map<string, { events: Stored[]; tombstoned: boolean }>();
  /** Event ids the server remembers for appends with `any` / `stream_exists` (lost on restart). */
  private idempotencyWindow = new Set<string>();
  private readonly failures = new Map<Method, Error[]>();
  private readonly live: Array<{ stream: PassThrough; filter: Filter | undefined }> = [];

  readonly category = {
    status: 'Running' as string,
    /** `first` is the standard `$by_category` setting; `last` splits at the last dash. */
    separator: 'first' as 'first' | 'last',
    /** When false, links are written only by `catchUp` (the projection lags). */
    immediate: true,
    /** Index in `log` of the next event the projection has not handled. */
    next: 0,
  };

  /** What the adapter asked for, to check costs: events each read returned, per call. */
  readonly reads: Array<{ method: 'readStream' | 'readAll'; target: string; returned: number }> =
    [];
  readonly subscriptions: Array<{ stream: PassThrough; filter: Filter | undefined }> = [];
  maxAppendSize = ONE_MIB;

  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  /** The next call of `method` fails with `error` (a transport failure or any error). */
  failNext(method: Method, error: TransportFailure | Error): void {
    const queue = this.failures.get(method) ?? [];
    queue.push(typeof error === 'string' ? transportError(error) : error);
    this.failures.set(method, queue);
  }

  /** A node restart or a failover: the in-memory idempotency window is gone. */
  restart(): void {
    this.idempotencyWindow = new Set();
  }

  /** Lets the projection write the links of every event up to `position` (all, by default). */
  catchUp(position?: bigint): void {
    // A stopped projection stays where it was; it resumes from there.
    if (this.category.status !== 'Running') return;
    for (;;) {
      const event = this.log[this.category.next];
      if (event === undefined || (position !== undefined && event.position > position)) return;
      this.category.next += 1;
      this.link(event);
    }
  }

  /** An event written by another tool, bypassing the adapter. */
  writeRaw(
    streamId: string,
    type: string,
    body: { isJson: boolean; data: unknown; metadata?: unknown },
  ) {
    return this.write(streamId, [{ id: crypto.randomUUID(), type, ...body }]);
  }

  /** Removes what tombstones left in `$all` (the operator's scavenge). */
  scavenge(): void {
    const kept = this.log.filter((event) => !this.streams.get(event.streamId)?.tombstoned);
    this.log.splice(0, this.log.length, ...kept);
    this.category.next = Math.min(this.category.next, this.log.length);
  }

  // ---- the client's surface ----

  appendToStream(
    streamId: string,
    events: EventData | EventData[],
    options: { expectedRevision?: AppendExpectedRevision } = {},
  ) {
    const failure = this.takeFailure('appendToStream');
    if (failure) return Promise.reject(failure);
    const batch = Array.isArray(events) ? events : [events];
    const size = batch.reduce(
      (sum, event) =>
        sum + JSON.stringify(event.data).length + JSON.stringify(event.metadata ?? {}).length,
      0,
    );
    if (size > this.maxAppendSize) {
      return Promise.reject(new MaxAppendSizeExceededError(undefined, this.maxAppendSize));
    }
    const stream = this.streams.get(streamId);
    if (stream?.tombstoned) return Promise.reject(StreamDeletedError.fromStreamName(streamId));
    const current = stream === undefined ? -1n : BigInt(stream.events.length - 1);
    const expected = options.expectedRevision ?? 'any';
    if (typeof expected === 'bigint' || expected === 'no_stream') {
      const from = expected === 'no_stream' ? -1n : expected;
      // Exact revision: a retry of the same ids right after `from` is answered without writing.
      const already = stream?.events.slice(Number(from) + 1, Number(from) + 1 + batch.length);
      if (already?.length === batch.length && already.every((e, i) => e.id === batch[i]!.id)) {
        return Promise.resolve({
          success: true,
          nextExpectedRevision: already.at(-1)!.revision,
          position: undefined,
        });
      }
      if (from !== current) {
        return Promise.reject(
          new WrongExpectedVersionError(undefined, {
            streamName: streamId,
            expected: expected === 'no_stream' ? 'no_stream' : expected,
            current: current < 0n ? 'no_stream' : current,
          }),
        );
      }
    } else {
      if (expected === 'stream_exists' && current < 0n) {
        return Promise.reject(
          new WrongExpectedVersionError(undefined, {
            streamName: streamId,
            expected: 'stream_exists',
            current: 'no_stream',
          }),
        );
      }
      // Outside exact revisions only the window recognises a retry, and only by id.
      if (batch.every((event) => this.idempotencyWindow.has(event.id))) {
        return Promise.resolve({
          success: true,
          nextExpectedRevision: current,
          position: undefined,
        });
      }
    }
    const written = this.write(
      streamId,
      batch.map((event) => ({
        id: event.id,
        type: event.type,
        isJson: event.contentType === 'application/json',
        data: event.data,
        metadata: event.metadata,
      })),
    );
    for (const event of batch) this.idempotencyWindow.add(event.id);
    const last = written.at(-1)!;
    return Promise.resolve({
      success: true,
      nextExpectedRevision: last.revision,
      position: { commit: last.position, prepare: last.position },
    });
  }

  readStream(streamId: string, options: ReadStreamOptions = {}) {
    const failure = this.takeFailure('readStream');
    if (failure) return failingRead(failure);
    const stream = this.streams.get(streamId);
    if (stream?.tombstoned) return failingRead(StreamDeletedError.fromStreamName(streamId));
    if (stream === undefined) return failingRead(new StreamNotFoundError(undefined, streamId));
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    let selected = backwards ? [...stream.events].reverse() : stream.events;
    if (typeof from === 'bigint') {
      selected = selected.filter((e) => (backwards ? e.revision <= from : e.revision >= from));
    }
    const page = selected.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER));
    this.reads.push({ method: 'readStream', target: streamId, returned: page.length });
    return streamingRead(page.map((event) => this.resolve(event, options.resolveLinkTos === true)));
  }

  readAll(options: ReadAllOptions = {}) {
    const failure = this.takeFailure('readAll');
    if (failure) return failingRead(failure);
    const backwards = options.direction === 'backwards';
    const from = options.fromPosition ?? (backwards ? 'end' : 'start');
    let selected = backwards ? [...this.log].reverse() : this.log;
    if (typeof from === 'object') {
      // Forwards from a position includes it; backwards reads what lies before it.
      selected = selected.filter((e) =>
        backwards ? e.position < from.commit : e.position >= from.commit,
      );
    }
    const page = selected.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER));
    this.reads.push({ method: 'readAll', target: '$all', returned: page.length });
    return streamingRead(page.map((event) => this.allResolved(event)));
  }

  subscribeToAll(options: SubscribeToAllOptions = {}) {
    const failure = this.takeFailure('subscribeToAll');
    const stream = new PassThrough({ objectMode: true });
    const entry = { stream, filter: options.filter };
    this.subscriptions.push(entry);
    if (failure) {
      process.nextTick(() => stream.destroy(failure));
    } else {
      const from = options.fromPosition ?? 'start';
      for (const event of this.log) {
        const after = from === 'start' || (from !== 'end' && event.position > from.commit);
        if (after && passesFilter(event, options.filter)) stream.write(this.allResolved(event));
      }
      this.live.push(entry);
    }
    const subscription = Object.assign(stream, {
      unsubscribe: () => {
        this.live.splice(this.live.indexOf(entry), 1);
        stream.end();
        return Promise.resolve();
      },
    });
    // A filtered subscription reports how far the server has searched, here once caught up.
    const head = this.log.at(-1);
    const checkpointReached = options.filter?.checkpointReached;
    if (!failure && head !== undefined && checkpointReached !== undefined) {
      setImmediate(() => {
        if (!stream.writableEnded) {
          void checkpointReached(subscription, {
            commit: head.position,
            prepare: head.position,
          });
        }
      });
    }
    return subscription;
  }

  tombstoneStream(streamId: string) {
    const failure = this.takeFailure('tombstoneStream');
    if (failure) return Promise.reject(failure);
    const stream = this.streams.get(streamId);
    if (stream?.tombstoned) return Promise.reject(StreamDeletedError.fromStreamName(streamId));
    this.streams.set(streamId, { events: stream?.events ?? [], tombstoned: true });
    return Promise.resolve({});
  }

  getProjectionStatus(name: string) {
    const failure = this.takeFailure('getProjectionStatus');
    if (failure) return Promise.reject(failure);
    if (name !== '$by_category') return Promise.reject(new Error(`no projection ${name}`));
    return Promise.resolve({
      name,
      status: this.category.status,
      projectionStatus: this.category.status,
      stateReason: '',
    });
  }

  dispose() {
    return Promise.resolve();
  }

  // ---- the model ----

  private takeFailure(method: Method): Error | undefined {
    return this.failures.get(method)?.shift();
  }

  private write(
    streamId: string,
    events: ReadonlyArray<{
      id: string;
      type: string;
      isJson: boolean;
      data: unknown;
      metadata?: unknown;
    }>,
  ): Stored[] {
    const stream = this.streams.get(streamId) ?? { events: [], tombstoned: false };
    this.streams.set(streamId, stream);
    const written = events.map((event) => {
      const stored: Stored = {
        streamId,
        id: event.id,
        type: event.type,
        revision: BigInt(stream.events.length),
        position: (this.log.at(-1)?.position ?? 0n) + POSITION_STEP,
        isJson: event.isJson,
        data: event.data,
        metadata: event.metadata ?? {},
        created: new Date(0),
      };
      stream.events.push(stored);
      this.log.push(stored);
      for (const { stream: live, filter } of this.live) {
        if (passesFilter(stored, filter)) live.write(this.allResolved(stored));
      }
      return stored;
    });
    if (this.category.immediate && !streamId.startsWith('$')) this.catchUp();
    return written;
  }

  /** What `$by_category` does with one event: a link in `$ce-{category}`, when it runs. */
  private link(event: Stored): void {
    if (event.streamId.startsWith('$') || event.type.startsWith('$')) return;
    const dash =
      this.category.separator === 'first'
        ? event.streamId.indexOf('-')
        : event.streamId.lastIndexOf('-');
    if (dash < 0) return;
    this.write(`$ce-${event.streamId.slice(0, dash)}`, [
      {
        id: crypto.randomUUID(),
        type: LINK,
        isJson: false,
        data: Buffer.from(`${event.revision}@${event.streamId}`),
      },
    ]);
  }

  private resolve(event: Stored, resolveLinks: boolean): ResolvedEvent {
    if (!resolveLinks || event.type !== LINK) return { event: this.recorded(event) };
    const [revision, ...name] = Buffer.from(event.data as Uint8Array)
      .toString()
      .split('@');
    const target = this.streams.get(name.join('@'));
    const resolved = target?.tombstoned ? undefined : target?.events[Number(revision)];
    // A link to a deleted event comes back alone, as `link`, without `event`.
    return resolved === undefined
      ? { link: this.recorded(event) }
      : { event: this.recorded(resolved), link: this.recorded(event) };
  }

  private allResolved(event: Stored): AllStreamResolvedEvent {
    return { event: this.recorded(event), commitPosition: event.position };
  }

  /** Typed loosely: the client's types split JSON, binary and link records apart. */
  private recorded(event: Stored): never {
    const position: Position = { commit: event.position, prepare: event.position };
    return {
      streamId: event.streamId,
      id: event.id,
      revision: event.revision,
      type: event.type,
      created: event.created,
      isJson: event.isJson,
      data: event.data,
      metadata: event.metadata,
      position,
    } as RecordedEvent as never;
  }
}
