import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';
import type { MemoryKind } from './memory-kinds';

/** Who decided: a person (with the role they acted in), the workspace policy, or the expiry scheduler. */
export type DecidedBy =
  | Readonly<{ kind: 'person'; userId: string; role: 'user' | 'admin' }>
  | Readonly<{ kind: 'policy' }>
  | Readonly<{ kind: 'expiry' }>;

export type MemoryCandidateDetected = Event<
  'MemoryCandidateDetected',
  {
    memoryId: string;
    kind: MemoryKind;
    content: string;
    confidence: number;
    dueAt?: string;
    sourceMessageId: string;
    /** The beginning of the source message, for reviewers who may not read the conversation itself. */
    sourceExcerpt: string;
    sessionId: string;
    /** The wipe generation this memory belongs to (memories of an earlier generation were wiped). */
    generation: number;
    /**
     * The memory this one replaces ("I moved to Paris" after "lives in Lyon"): once this one is
     * approved, that one is superseded. Optional, so detections stored before it read unchanged.
     */
    supersedes?: string;
  }
>;
export type MemoryReinforced = Event<
  'MemoryReinforced',
  { memoryId: string; sourceMessageId: string; confidence: number }
>;
/**
 * A newer memory (`supersededBy`, approved) contradicts this one: it leaves the context and the
 * user's current memories, and stays in the log, the as-of view and the export as history.
 */
export type MemorySuperseded = Event<
  'MemorySuperseded',
  { memoryId: string; supersededBy: string }
>;
export type MemoryApproved = Event<'MemoryApproved', { memoryId: string; by: DecidedBy }>;
export type MemoryRejected = Event<
  'MemoryRejected',
  { memoryId: string; by: DecidedBy; reason?: string }
>;
/** A pending candidate nobody reviewed in time: counts as rejected, with reason `expired`. */
export type MemoryExpired = Event<
  'MemoryExpired',
  { memoryId: string; by: DecidedBy; reason: 'expired' }
>;
export type MemoryEvicted = Event<'MemoryEvicted', { memoryId: string; reason: 'cap' }>;
export type MemoryDeleted = Event<
  'MemoryDeleted',
  { memoryId: string; by: DecidedBy; reason: 'deleted' | 'wipe' }
>;

/**
 * Memories put in agent contexts, batched per user (not one event per read): it feeds the LRU of the cap.
 * A fact about reads: `memoryUsageDecider` never refuses it, so its stream is appended to unread.
 */
export type MemoriesUsed = Event<'MemoriesUsed', { memoryIds: string[] }>;

export type MemoryEvent =
  | MemoryCandidateDetected
  | MemoryReinforced
  | MemoryApproved
  | MemoryRejected
  | MemoryExpired
  | MemoryEvicted
  | MemoryDeleted
  | MemorySuperseded;

export const MEMORY_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'MemoryCandidateDetected', version: 1, personalFields: ['content', 'sourceExcerpt'] },
  { type: 'MemoryReinforced', version: 1, personalFields: [] },
  { type: 'MemoryApproved', version: 1, personalFields: [] },
  { type: 'MemoryRejected', version: 1, personalFields: ['reason'] },
  { type: 'MemoryExpired', version: 1, personalFields: [] },
  { type: 'MemoryEvicted', version: 1, personalFields: [] },
  { type: 'MemoriesUsed', version: 1, personalFields: [] },
  { type: 'MemoryDeleted', version: 1, personalFields: [] },
  { type: 'MemorySuperseded', version: 1, personalFields: [] },
];
