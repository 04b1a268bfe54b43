import type { Clock, OwnerDigest } from '@engram/domain';
import type { EventCodec, EventStore, StreamStates } from '@engram/event-store';
import type { Llm } from '@engram/llm';
import type { CommittedCheckpoints } from '@engram/projections';
import type { DataSource } from 'typeorm';
import type { PolicyReader } from './policy-reader';

export type ProcessManagerDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  /** Connected as the projector role: sees every user's read-model rows. */
  dataSource: DataSource;
  llm: Llm;
  clock: Clock;
  policies: PolicyReader;
  /** The keyed digest memory ids are made of, per owner (libs/crypto's `memoryIdDigests`). */
  memoryIdDigests: OwnerDigests;
  /** The checkpoints of the projections run in this process: waits for them need not poll. */
  committed?: CommittedCheckpoints;
  /** How many partitions the projections run as (ENGRAM_PARTITIONS; 1 when left out). */
  partitions?: number;
  /**
   * The memory states this process decided on last (`StreamStates`): a memory restated again is
   * decided on what was appended since, not on its whole stream. Left out, every command reads it whole.
   */
  memoryStates?: StreamStates;
}>;

/** Port: an owner's keyed digest; rejects once the owner is erased (their key is destroyed). */
export type OwnerDigests = Readonly<{
  digestFor(workspaceId: string, userId: string): Promise<OwnerDigest>;
}>;
