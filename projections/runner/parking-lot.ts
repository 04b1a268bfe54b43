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

export type Decision = Readonly<{
  kind: ParkedEventDecision['type'];
  ref: ParkedEventRef;
  owner: Owner;
  position: bigint;
}>;

/**
 * What one partition of a consumer (projection or process manager) holds back: the owners whose
 * parked event stops them, so that their later events wait while every other owner flows. It also
 * recognises the operators' decisions meant for it and counts a failing batch's tries.
 */
export class ParkingLot {
  readonly partition: string;
  private parked = new Map<string, ParkedEvent>();
  private failing: { from: bigint; attempts: number } | undefined;

  constructor(
    /** The projection's name, or `reactor:<name>`. */
    readonly consumer: string,
    private readonly slice: PartitionSlice,
    private readonly workspaceLevel: boolean,
    /** Tries of a failing batch or event before it is parked. */
    readonly maxAttempts: number,
  ) {
    this.partition = partitionName(consumer, slice);
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
    // The count of a failing batch's tries survives: the runner reloads after each failure.
    this.parked = await loadParked(manager, this.consumer, this.partition);
  }

  get size(): number {
    return this.parked.size;
  }

  ownerOf(event: RecordedEvent): Owner {
    return ownerOfStream(event.streamId, this.workspaceLevel);
  }

  /** The event's owner is this partition's. */
  owns(event: RecordedEvent): boolean {
    return this.inSlice(this.ownerOf(event));
  }

  /** The event's owner is parked here: it waits. */
  holds(event: RecordedEvent): boolean {
    return this.parked.size > 0 && this.parked.has(ownerKey(this.ownerOf(event)));
  }

  parkedFor(owner: Owner): ParkedEvent | undefined {
    return this.parked.get(ownerKey(owner));
  }

  remember(parked: ParkedEvent): void {
    this.parked.set(ownerKey(parked), parked);
  }

  forget(owner: Owner): void {
    this.parked.delete(ownerKey(owner));
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

  /** One more failed try of the batch starting after `from`: true when it is time to park. */
  failed(from: bigint): boolean {
    const attempts = this.failing?.from === from ? this.failing.attempts + 1 : 1;
    this.failing = { from, attempts };
    return attempts >= this.maxAttempts;
  }

  /** Tries so far of the batch that fails (0 when none does): the backoff grows with them. */
  get attempts(): number {
    return this.failing?.attempts ?? 0;
  }

  succeeded(): void {
    this.failing = undefined;
  }

  private inSlice(owner: Owner): boolean {
    return partitionIndexOf(owner, this.slice.count) === this.slice.index;
  }
}

/** Waits longer after each failed try: `base`, doubling, at most 30 s. */
export function backoffMs(base: number, attempts: number): number {
  return Math.min(base * 2 ** Math.max(0, attempts - 1), 30_000);
}
