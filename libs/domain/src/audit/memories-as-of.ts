import type { Event } from '../event';
import type {
  DecidedBy,
  MemoriesUsed,
  MemoryApproved,
  MemoryCandidateDetected,
  MemoryDeleted,
  MemoryEvicted,
  MemoryExpired,
  MemoryRejected,
  MemoryReinforced,
} from '../memories/memory-events';
import type { MemoryKind } from '../memories/memory-kinds';
import {
  reportMemoryStatus,
  type ReportedMemoryStatus,
  type StoredMemoryStatus,
} from '../memories/reported-status';
import type { MessageRecorded } from '../messages/message-events';
import type { MemoriesWiped } from '../memory-profile/memory-profile-events';

/** How much of the source message an as-of memory quotes (code points, ellipsis included). */
export const SOURCE_EXCERPT_LENGTH = 200;

/**
 * What the replay needs of a decoded event (a `DecodedEvent` is one): the event, when it happened,
 * and whether its personal data was shredded (then its personal fields are not there to read).
 */
export type AsOfEvent = Readonly<{
  event: Event;
  metadata: Readonly<{ occurredAt: string }>;
  erased?: boolean;
}>;

/** An expiry is a `rejected` step by `{ kind: expiry }` with the reason `expired` (seed 002). */
export type MemoryHistoryStep =
  'detected' | 'reinforced' | 'approved' | 'rejected' | 'evicted' | 'deleted' | 'used';

export type MemoryHistoryEntry = Readonly<{
  at: string;
  event: MemoryHistoryStep;
  by?: DecidedBy;
  confidence?: number;
  reason?: string;
  /** The message that (re)detected the memory (detected and reinforced steps). */
  messageId?: string;
}>;

export type SourceMessage = Readonly<{ messageId: string; excerpt: string; at: string }>;

export type MemoryAsOf = Readonly<{
  memoryId: string;
  kind: MemoryKind;
  /** null once deleted (as in the read model), or when the event holding it was erased. */
  content: string | null;
  confidence: number;
  status: ReportedMemoryStatus;
  /** Why it was rejected: the reviewer's reason, or `expired` when nobody reviewed it in time. */
  reason?: string;
  dueAt?: string;
  generation: number;
  /** The message it was (last) detected from, as it stood at that time; null if not in the history. */
  sourceMessage: SourceMessage | null;
  /** Every step of the memory up to the instant asked for, oldest first. */
  history: MemoryHistoryEntry[];
}>;

type Working = {
  memoryId: string;
  kind: MemoryKind;
  content: string | null;
  confidence: number;
  status: StoredMemoryStatus;
  rejectionReason?: string;
  dueAt?: string;
  generation: number;
  sourceMessageId: string;
  history: MemoryHistoryEntry[];
};

/** `text` cut to `max` code points, the last one an ellipsis when it was longer. */
export function sourceExcerpt(text: string, max = SOURCE_EXCERPT_LENGTH): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, max - 1).join('')}…`;
}

function instant(iso: string | Date): number {
  const ms = typeof iso === 'string' ? Date.parse(iso) : iso.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO-8601 instant: ${String(iso)}`);
  return ms;
}

/**
 * The replay behind `memoriesAsOf`, fed one event at a time (so a caller can read a long history page
 * by page without holding it). Pure: no I/O, no clock; the same events and instant give the same result.
 */
export class MemoriesAsOfReplay {
  private readonly at: number;
  private readonly memories = new Map<string, Working>();
  private readonly messages = new Map<string, SourceMessage>();

  constructor(at: string | Date) {
    this.at = instant(at);
  }

  /** Folds one event; events must come in the store's global order. Later ones are skipped. */
  add(input: AsOfEvent): void {
    const at = input.metadata.occurredAt;
    if (instant(at) > this.at) return;
    const { event } = input;
    switch (event.type) {
      case 'MessageRecorded': {
        const { data } = event as MessageRecorded;
        const text = input.erased || typeof data.text !== 'string' ? '' : data.text;
        this.messages.set(data.messageId, {
          messageId: data.messageId,
          excerpt: sourceExcerpt(text),
          at,
        });
        return;
      }
      case 'MemoryCandidateDetected': {
        const { data } = event as MemoryCandidateDetected;
        const previous = this.memories.get(data.memoryId);
        // Detected again after it was deleted, evicted or expired: it starts over, its history goes on.
        this.memories.set(data.memoryId, {
          memoryId: data.memoryId,
          kind: data.kind,
          content: input.erased || typeof data.content !== 'string' ? null : data.content,
          confidence: data.confidence,
          status: 'pending',
          ...(data.dueAt === undefined ? {} : { dueAt: data.dueAt }),
          generation: data.generation,
          sourceMessageId: data.sourceMessageId,
          history: [
            ...(previous?.history ?? []),
            {
              at,
              event: 'detected',
              confidence: data.confidence,
              messageId: data.sourceMessageId,
            },
          ],
        });
        return;
      }
      case 'MemoryReinforced': {
        const { data } = event as MemoryReinforced;
        this.step(data.memoryId, (memory) => {
          memory.confidence = Math.max(memory.confidence, data.confidence);
          memory.history.push({
            at,
            event: 'reinforced',
            confidence: data.confidence,
            messageId: data.sourceMessageId,
          });
        });
        return;
      }
      case 'MemoryApproved': {
        const { data } = event as MemoryApproved;
        this.decided(data.memoryId, 'approved', { at, event: 'approved', by: data.by });
        return;
      }
      case 'MemoryRejected': {
        const { data } = event as MemoryRejected;
        const reason = typeof data.reason === 'string' ? data.reason : undefined;
        this.decided(data.memoryId, 'rejected', {
          at,
          event: 'rejected',
          by: data.by,
          ...(reason === undefined ? {} : { reason }),
        });
        this.step(data.memoryId, (memory) => {
          if (reason !== undefined) memory.rejectionReason = reason;
        });
        return;
      }
      case 'MemoryExpired': {
        // Seed 002: an expired candidate is rejected automatically; reported so, the event stays.
        const { data } = event as MemoryExpired;
        this.decided(data.memoryId, 'expired', {
          at,
          event: 'rejected',
          by: data.by,
          reason: data.reason,
        });
        return;
      }
      case 'MemoryEvicted': {
        const { data } = event as MemoryEvicted;
        this.decided(data.memoryId, 'evicted', { at, event: 'evicted', reason: data.reason });
        return;
      }
      case 'MemoryDeleted': {
        const { data } = event as MemoryDeleted;
        this.decided(data.memoryId, 'deleted', {
          at,
          event: 'deleted',
          by: data.by,
          reason: data.reason,
        });
        // As in the read model: a deleted memory no longer holds its content (the log still does).
        this.step(data.memoryId, (memory) => {
          memory.content = null;
        });
        return;
      }
      case 'MemoriesUsed': {
        const { data } = event as MemoriesUsed;
        for (const memoryId of new Set(data.memoryIds)) {
          this.step(memoryId, (memory) => memory.history.push({ at, event: 'used' }));
        }
        return;
      }
      case 'MemoriesWiped': {
        // The memories of earlier generations are gone; the conversation stays.
        const { generation } = (event as MemoriesWiped).data;
        for (const [memoryId, memory] of this.memories) {
          if (memory.generation < generation) this.memories.delete(memoryId);
        }
        return;
      }
      default:
        return;
    }
  }

  /** The memories as they stood, in the order they were first detected. */
  result(): MemoryAsOf[] {
    return [...this.memories.values()].map((memory) => {
      const { sourceMessageId, history, status, rejectionReason, ...rest } = memory;
      return {
        ...rest,
        ...reportMemoryStatus(status, rejectionReason),
        sourceMessage: this.messages.get(sourceMessageId) ?? null,
        history: [...history],
      };
    });
  }

  private step(memoryId: string, change: (memory: Working) => void): void {
    const memory = this.memories.get(memoryId);
    // An event about a memory not (or no longer) known changes nothing, as in the read model.
    if (memory) change(memory);
  }

  private decided(memoryId: string, status: StoredMemoryStatus, entry: MemoryHistoryEntry): void {
    this.step(memoryId, (memory) => {
      memory.status = status;
      delete memory.rejectionReason;
      memory.history.push(entry);
    });
  }
}

/**
 * A user's memories as they stood at `at`, by replaying their events (in global order) whose
 * `occurredAt` is at or before `at`: each memory with its status then, its source message (an excerpt
 * of at most 200 characters) and its history. A wipe removes the memories of earlier generations.
 */
export function memoriesAsOf(events: Iterable<AsOfEvent>, at: string | Date): MemoryAsOf[] {
  const replay = new MemoriesAsOfReplay(at);
  for (const event of events) replay.add(event);
  return replay.result();
}
