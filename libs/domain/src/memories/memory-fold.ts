import { assertNever } from '../decider';
import type { DecidedBy, MemoryEvent } from './memory-events';
import type { MemoryKind } from './memory-kinds';

/** What a memory is whatever its status, as its last detection and what followed made it. */
type MemoryFacts = Readonly<{
  memoryId: string;
  kind: MemoryKind;
  /** null once deleted: a deleted memory no longer holds its words (the log still does). */
  content: string | null;
  /** The highest confidence it was detected or reinforced with since its last detection. */
  confidence: number;
  dueAt?: string;
  generation: number;
  sourceMessageId: string;
  /** null once deleted, as the content. */
  sourceExcerpt: string | null;
  sessionId: string;
  /** Detections and reinforcements since its last detection. */
  seenCount: number;
  /** The memory its last detection replaces once approved (`MemorySuperseded` on that one). */
  supersedes?: string;
}>;

/**
 * One memory as its events make it, keyed on status. The one fold of memory events: the memory
 * decider's state, the memories read model's row and the auditors' as-of view are this state plus
 * what each of them alone needs (the decider the source messages it already heard, the read model
 * times and positions, the as-of view a history); none reads time, so a replay folds the same way.
 */
export type Memory =
  | (MemoryFacts & Readonly<{ status: 'pending' }>)
  | (MemoryFacts & Readonly<{ status: 'approved'; decidedBy: DecidedBy }>)
  | (MemoryFacts & Readonly<{ status: 'rejected'; decidedBy: DecidedBy; reason?: string }>)
  | (MemoryFacts & Readonly<{ status: 'expired'; decidedBy: DecidedBy; reason: 'expired' }>)
  // The cap evicts: nobody decided.
  | (MemoryFacts & Readonly<{ status: 'evicted' }>)
  | (MemoryFacts & Readonly<{ status: 'deleted'; decidedBy: DecidedBy }>)
  // Replaced by a newer approved memory: nobody decided about this one.
  | (MemoryFacts & Readonly<{ status: 'superseded'; supersededBy: string }>);

function factsOf(memory: Memory): MemoryFacts {
  return {
    memoryId: memory.memoryId,
    kind: memory.kind,
    content: memory.content,
    confidence: memory.confidence,
    ...(memory.dueAt === undefined ? {} : { dueAt: memory.dueAt }),
    generation: memory.generation,
    sourceMessageId: memory.sourceMessageId,
    sourceExcerpt: memory.sourceExcerpt,
    sessionId: memory.sessionId,
    seenCount: memory.seenCount,
    ...(memory.supersedes === undefined ? {} : { supersedes: memory.supersedes }),
  };
}

/**
 * The memory after `event`; `undefined` while it is unknown. A memory detected again (after it was
 * deleted, evicted or expired: same id) starts over as a new pending one; an event about a memory
 * not known changes nothing. Pure: no clock, no I/O.
 */
export function evolveMemory(memory: Memory | undefined, event: MemoryEvent): Memory | undefined {
  if (event.type === 'MemoryCandidateDetected') {
    const { data } = event;
    return {
      status: 'pending',
      memoryId: data.memoryId,
      kind: data.kind,
      content: data.content,
      confidence: data.confidence,
      ...(data.dueAt === undefined ? {} : { dueAt: data.dueAt }),
      generation: data.generation,
      sourceMessageId: data.sourceMessageId,
      sourceExcerpt: data.sourceExcerpt,
      sessionId: data.sessionId,
      seenCount: 1,
      ...(data.supersedes === undefined ? {} : { supersedes: data.supersedes }),
    };
  }
  if (memory === undefined) return undefined;
  switch (event.type) {
    case 'MemoryReinforced':
      return {
        ...memory,
        seenCount: memory.seenCount + 1,
        confidence: Math.max(memory.confidence, event.data.confidence),
      };
    case 'MemoryApproved':
      return { ...factsOf(memory), status: 'approved', decidedBy: event.data.by };
    case 'MemoryRejected': {
      // A shredded reason (erasure) is no reason.
      const { reason } = event.data;
      return {
        ...factsOf(memory),
        status: 'rejected',
        decidedBy: event.data.by,
        ...(typeof reason === 'string' ? { reason } : {}),
      };
    }
    case 'MemoryExpired':
      return { ...factsOf(memory), status: 'expired', decidedBy: event.data.by, reason: 'expired' };
    case 'MemoryEvicted':
      return { ...factsOf(memory), status: 'evicted' };
    case 'MemoryDeleted':
      return {
        ...factsOf(memory),
        status: 'deleted',
        decidedBy: event.data.by,
        content: null,
        sourceExcerpt: null,
      };
    case 'MemorySuperseded':
      return { ...factsOf(memory), status: 'superseded', supersededBy: event.data.supersededBy };
    default:
      return assertNever(event);
  }
}

/**
 * Who decided the memory's present status: nobody while pending, once evicted by the cap, or once
 * superseded (the newer memory's approval decided, and that one records it).
 */
export function decidedByOf(memory: Memory): DecidedBy | null {
  return memory.status === 'pending' ||
    memory.status === 'evicted' ||
    memory.status === 'superseded'
    ? null
    : memory.decidedBy;
}
