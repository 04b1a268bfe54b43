import { parseStreamName } from '@engram/domain';
import { StreamDeletedError, StreamNotFoundError } from '../errors';
import type {
  AppendOptions,
  AppendResult,
  EventRecord,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  UnparsedEvent,
} from '../event-store.port';
import { unparseEvent } from '../unparsed-event';
import { answerRetry, checkExpectation, normalizeIds } from './append-checks';
import { AppendWaiters } from './append-waiters';
import { passesFilter, readCopy, serialize, storedEvent, type StoredEvent } from './stored-event';

export type InMemoryEventStoreOptions = Readonly<{
  /** When an event is recorded (`recordedAt`); the system clock by default. */
  now?: () => Date;
}>;

type After = Readonly<{ after?: bigint | 'start'; maxCount?: number }>;

/**
 * The event store port in memory, for unit tests: the PostgreSQL adapter's semantics (the contract
 * suite runs against both) without a database. One global order without gaps, optimistic
 * concurrency, idempotency by event id, deletion leaving a tombstone, subscriptions that catch up
 * and follow. Not for production: nothing is persisted.
 */
export class InMemoryEventStore implements EventStore {
  readonly kind = 'in-memory' as const;
  /** The global order: the event at position p is at index p - 1; a deleted event leaves a hole. */
  private readonly log: (StoredEvent | undefined)[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly byId = new Map<string, StoredEvent>();
  /** `{workspaceId}/{userId}` → that user's events in global order, as PostgreSQL's owner index. */
  private readonly byOwner = new Map<string, StoredEvent[]>();
  private readonly tombstones = new Set<string>();
  /** Closed owners (`closeOwner`), with the prefixes of the streams each may still create. */
  private readonly closedOwners = new Map<string, readonly string[]>();
  private readonly waiters = new AppendWaiters();
  private readonly now: () => Date;
  private closed = false;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async appendToStream(
    streamId: string,
    events: readonly EventRecord[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    this.assertOpen();
    const records = normalizeIds(streamId, events);
    const found = records.map((record) => this.byId.get(record.eventId));
    if (found.some((stored) => stored !== undefined)) {
      return answerRetry(
        streamId,
        records.map((record) => record.eventId),
        found,
      );
    }
    if (this.tombstones.has(streamId)) throw new StreamDeletedError(streamId);
    const stream = this.streams.get(streamId);
    const owner = ownerOf(streamId);
    const keep = owner && this.closedOwners.get(owner);
    if (!stream && keep && !keep.some((prefix) => streamId.startsWith(prefix))) {
      throw new StreamDeletedError(streamId);
    }
    const current = stream ? BigInt(stream.length - 1) : undefined;
    checkExpectation(streamId, options.expectedRevision, current);
    if (records.length === 0) {
      return { nextExpectedRevision: current ?? -1n, position: this.head, alreadyStored: false };
    }
    const payloads = records.map(serialize);
    const recordedAt = this.now().getTime();
    const written = records.map((record, index) =>
      storedEvent(record, payloads[index]!, {
        streamId,
        streamRevision: (current ?? -1n) + BigInt(index + 1),
        globalPosition: this.head + BigInt(index + 1),
        recordedAt,
      }),
    );
    this.write(streamId, written);
    const last = written.at(-1)!;
    return {
      nextExpectedRevision: last.streamRevision,
      position: last.globalPosition,
      alreadyStored: false,
    };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const stream = this.streams.get(streamId);
    if (!stream) throw new StreamNotFoundError(streamId);
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision;
    const events = backwards ? [...stream].reverse() : stream;
    const selected =
      typeof from === 'bigint'
        ? events.filter((e) => (backwards ? e.streamRevision <= from : e.streamRevision >= from))
        : events;
    return selected.slice(0, options.maxCount).map(readCopy);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const found: RecordedEvent[] = [];
    const limit = options.maxCount ?? Infinity;
    for (let index = startIndex(options.after); index < this.log.length; index += 1) {
      if (found.length >= limit) break;
      const stored = this.log[index];
      if (stored && passesFilter(stored, options.filter)) found.push(readCopy(stored));
    }
    return found;
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const { signal } = options;
    let index = startIndex(options.after);
    while (!signal?.aborted && !this.closed) {
      for (; index < this.log.length; index += 1) {
        const stored = this.log[index];
        if (!stored || !passesFilter(stored, options.filter)) continue;
        if (signal?.aborted) return;
        yield readCopy(stored);
      }
      await this.waiters.next(signal);
    }
  }

  async readUserEvents(
    workspaceId: string,
    userId: string,
    options: After = {},
  ): Promise<RecordedEvent[]> {
    this.assertOpen();
    const after = options.after === undefined || options.after === 'start' ? 0n : options.after;
    return (this.byOwner.get(ownerKey(workspaceId, userId)) ?? [])
      .filter((stored) => stored.globalPosition > after)
      .slice(0, options.maxCount)
      .map(readCopy);
  }

  async readUserEventsUnparsed(
    workspaceId: string,
    userId: string,
    options: After = {},
  ): Promise<UnparsedEvent[]> {
    return (await this.readUserEvents(workspaceId, userId, options)).map(unparseEvent);
  }

  /** The events go, positions are not reused, and the name stays as a tombstone refusing appends. */
  async deleteStream(streamId: string): Promise<void> {
    this.assertOpen();
    this.tombstones.add(streamId);
    const stream = this.streams.get(streamId) ?? [];
    for (const stored of stream) {
      this.log[Number(stored.globalPosition) - 1] = undefined;
      this.byId.delete(stored.eventId);
    }
    this.streams.delete(streamId);
    const owner = ownerOf(streamId);
    const owned = owner && this.byOwner.get(owner);
    if (owned)
      this.byOwner.set(
        owner,
        owned.filter((stored) => stored.streamId !== streamId),
      );
  }

  readonly closesOwnersAtomically = true;
  readonly recognisesRetriesAnywhere = true;

  async closeOwner(workspaceId: string, userId: string, keep: readonly string[]): Promise<void> {
    this.assertOpen();
    const owner = ownerKey(workspaceId, userId);
    if (!this.closedOwners.has(owner)) this.closedOwners.set(owner, [...keep]);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return this.head;
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  /** Ends every subscription; any later call is refused, as by a closed pool. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiters.wakeAll();
  }

  private get head(): bigint {
    return BigInt(this.log.length);
  }

  private write(streamId: string, written: readonly StoredEvent[]): void {
    this.log.push(...written);
    entriesOf(this.streams, streamId).push(...written);
    for (const stored of written) this.byId.set(stored.eventId, stored);
    const owner = ownerOf(streamId);
    if (owner) entriesOf(this.byOwner, owner).push(...written);
    this.waiters.wakeAll();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The in-memory event store is closed');
  }
}

function entriesOf(index: Map<string, StoredEvent[]>, key: string): StoredEvent[] {
  let entries = index.get(key);
  if (!entries) index.set(key, (entries = []));
  return entries;
}

function startIndex(after: bigint | 'start' | undefined): number {
  return after === undefined || after === 'start' ? 0 : Number(after);
}

function ownerKey(workspaceId: string, userId: string): string {
  return `${workspaceId}/${userId}`;
}

/** The owner PostgreSQL indexes: user streams only (a workspace stream has none). */
function ownerOf(streamId: string): string | undefined {
  const owner = parseStreamName(streamId);
  return owner?.userId ? ownerKey(owner.workspaceId, owner.userId) : undefined;
}
