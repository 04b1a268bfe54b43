import {
  PARKED_EVENT_DECISION_TYPES,
  type ParkedEventDecision,
  type ParkedEventRef,
} from '@engram/domain';
import type { RecordedEvent } from '@engram/event-store';
import type { EntityManager } from 'typeorm';
import { loadParked, type ParkedEvent } from './parked-events';
import { PartitionCountMismatchError, agreePartitionCount } from './partition-count';
import {
  WORKSPACE_OWNER,
  ownerKey,
  ownerOfStream,
  partitionIndexOf,
  partitionName,
  type Owner,
  type PartitionSlice,
} from './partitions';

const DECISION_TYPES: ReadonlySet<string> = new Set(PARKED_EVENT_DECISION_TYPES);

type Placement = Readonly<{ owner: Owner; index: number }>;

/** Per event object, by kind of consumer: its owner and partition (dropped with the event). */
const PLACEMENTS = new WeakMap<RecordedEvent, Map<string, Placement>>();

export type Decision = Readonly<{
  kind: ParkedEventDecision['type'];
  ref: ParkedEventRef;
  owner: Owner;
  position: bigint;
}>;

/**
 * What one partition of a consumer (projection or process manager) holds back: the owners whose
 * parked event stops them, so that their later events wait while every other owner flows; the
 * automatic tries still due (with backoff) before an event waits for an operator; and the operators'
 * decisions meant for it.
 */
export class ParkingLot {
  readonly partition: string;
  private parked = new Map<string, ParkedEvent>();
  /**
   * Per parked owner, the position of their newest event this partition saw and held back: what
   * resuming must read again, at least (see `resumeThrough`).
   */
  private readonly heldUpTo = new Map<string, bigint>();
  /** When this process last tried each owner's parked event (the database's clock is not ours). */
  private readonly triedAt = new Map<string, number>();
  /** Which placement of an event this lot asks for (made once: it is asked per event). */
  private readonly placementKind: string;

  constructor(
    /** The projection's name, or `reactor:<name>`. */
    readonly consumer: string,
    private readonly slice: PartitionSlice,
    private readonly workspaceLevel: boolean,
    /** Tries of an event (the first, then automatic ones with backoff) before it waits for an operator. */
    readonly maxAttempts: number,
  ) {
    this.partition = partitionName(consumer, slice);
    this.placementKind = `${workspaceLevel ? 'workspace' : 'user'}/${slice.count}`;
  }

  /**
   * Reads what this partition holds back, after checking that the database runs as many partitions
   * as this runner assumes (the first runner of a database records its count).
   */
  async load(manager: EntityManager): Promise<void> {
    const recorded = await agreePartitionCount(manager, this.slice.count);
    if (recorded !== this.slice.count) {
      throw new PartitionCountMismatchError(this.partition, this.slice.count, recorded);
    }
    this.parked = await loadParked(manager, this.consumer, this.partition);
  }

  get size(): number {
    return this.parked.size;
  }

  ownerOf(event: RecordedEvent): Owner {
    return this.placementOf(event).owner;
  }

  /** The event's owner is this partition's. */
  owns(event: RecordedEvent): boolean {
    return this.placementOf(event).index === this.slice.index;
  }

  /**
   * Where the event goes for this kind of consumer. Every partition of every consumer of a worker
   * asks this of the same event objects (the shared feed hands them out), so the stream name is
   * parsed and hashed once per event and kind, not once per partition.
   */
  private placementOf(event: RecordedEvent): Placement {
    let placements = PLACEMENTS.get(event);
    if (!placements) PLACEMENTS.set(event, (placements = new Map<string, Placement>()));
    const kind = this.placementKind;
    let placement = placements.get(kind);
    if (!placement) {
      const owner = ownerOfStream(event.streamId, this.workspaceLevel);
      placement = { owner, index: partitionIndexOf(owner, this.slice.count) };
      placements.set(kind, placement);
    }
    return placement;
  }

  /** The event's owner is parked here at this event or before it: it waits. */
  holds(event: RecordedEvent): boolean {
    if (this.parked.size === 0) return false;
    const key = ownerKey(this.ownerOf(event));
    const parked = this.parked.get(key);
    if (parked === undefined || event.globalPosition < parked.position) return false;
    const held = this.heldUpTo.get(key);
    if (held === undefined || event.globalPosition > held)
      this.heldUpTo.set(key, event.globalPosition);
    return true;
  }

  /**
   * The position of the owner's own newest event a resume must find in the store's per-user read:
   * the last one held back here (or the parked event itself, after a restart, when this process
   * has seen none). Passed as `consistentThrough`, it makes a store whose per-user index trails the
   * appends (EventStoreDB's category stream) wait until that index holds every event the partition
   * skipped for the owner, instead of answering short and dropping them.
   */
  resumeThrough(parked: ParkedEvent): bigint {
    const held = this.heldUpTo.get(ownerKey(parked));
    return held !== undefined && held > parked.position ? held : parked.position;
  }

  parkedFor(owner: Owner): ParkedEvent | undefined {
    return this.parked.get(ownerKey(owner));
  }

  remember(parked: ParkedEvent): void {
    this.parked.set(ownerKey(parked), parked);
    this.triedAt.set(ownerKey(parked), Date.now());
  }

  forget(owner: Owner): void {
    this.parked.delete(ownerKey(owner));
    this.triedAt.delete(ownerKey(owner));
    this.heldUpTo.delete(ownerKey(owner));
  }

  /** An operator's retry or skip for an owner of this partition (its data is never personal). */
  decisionOf(event: RecordedEvent): Decision | undefined {
    if (!DECISION_TYPES.has(event.type)) return undefined;
    const ref = event.data as ParkedEventRef;
    if (ref.consumer !== this.consumer) return undefined;
    const owner = { workspaceId: ref.workspaceId, userId: ref.userId ?? WORKSPACE_OWNER };
    if (!this.inSlice(owner)) return undefined;
    return {
      kind: event.type as Decision['kind'],
      ref,
      owner,
      position: event.globalPosition,
    };
  }

  /** Parked for good: it waits for an operator's retry or skip (its automatic tries are spent). */
  isFinal(parked: ParkedEvent): boolean {
    return parked.attempts >= this.maxAttempts;
  }

  /** The parked events whose next automatic try is due at `now` (their backoff from `baseMs` passed). */
  dueForRetry(now: number, baseMs: number): ParkedEvent[] {
    return [...this.parked.values()].filter(
      (parked) => !this.isFinal(parked) && this.retryAt(parked, baseMs) <= now,
    );
  }

  /** How long until the next automatic try, if any is pending. */
  nextRetryIn(now: number, baseMs: number): number | undefined {
    let next: number | undefined;
    for (const parked of this.parked.values()) {
      if (this.isFinal(parked)) continue;
      const wait = Math.max(0, this.retryAt(parked, baseMs) - now);
      if (next === undefined || wait < next) next = wait;
    }
    return next;
  }

  private retryAt(parked: ParkedEvent, baseMs: number): number {
    const tried = this.triedAt.get(ownerKey(parked)) ?? parked.lastSeenAt.getTime();
    return tried + backoffMs(baseMs, parked.attempts);
  }

  private inSlice(owner: Owner): boolean {
    return partitionIndexOf(owner, this.slice.count) === this.slice.index;
  }
}

/** Waits longer after each failed try: `base`, doubling, at most 30 s. */
export function backoffMs(base: number, attempts: number): number {
  return Math.min(base * 2 ** Math.max(0, attempts - 1), 30_000);
}
