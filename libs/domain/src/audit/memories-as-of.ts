import { assertNever } from '../decider';
import type { DomainEvent } from '../domain-event';
import type { Event } from '../event';
import type { DecidedBy, MemoryEvent } from '../memories/memory-events';
import { evolveMemory, type Memory } from '../memories/memory-fold';
import type { MemoryKind } from '../memories/memory-kinds';
import { reportMemoryStatus, type ReportedMemoryStatus } from '../memories/reported-status';

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
  | 'detected'
  | 'reinforced'
  | 'approved'
  | 'rejected'
  | 'evicted'
  | 'deleted'
  | 'superseded'
  | 'used';

export type MemoryHistoryEntry = Readonly<{
  at: string;
  event: MemoryHistoryStep;
  by?: DecidedBy;
  confidence?: number;
  reason?: string;
  /** The message that (re)detected the memory (detected and reinforced steps). */
  messageId?: string;
  /** The newer memory that replaced this one (superseded step). */
  supersededBy?: string;
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
  /** The newer memory that replaced it, once superseded. */
  supersededBy?: string;
  dueAt?: string;
  generation: number;
  /** The message it was (last) detected from, as it stood at that time; null if not in the history. */
  sourceMessage: SourceMessage | null;
  /** Every step of the memory up to the instant asked for, oldest first. */
  history: MemoryHistoryEntry[];
}>;

/** One memory of the replay: the shared fold's state, and every step that led there. */
type Replayed = Readonly<{ memory: Memory; history: readonly MemoryHistoryEntry[] }>;

/**
 * The replay behind `memoriesAsOf`, fed one event at a time by `replayAsOf` (so a caller can read a
 * long history page by page without holding it). Pure: no I/O, no clock; the same events and instant
 * give the same state.
 */
export type MemoriesAsOfState = Readonly<{
  /** The instant asked for (ms): later events are skipped. */
  at: number;
  /** In the order the memories were first detected (a Map keeps it). */
  memories: ReadonlyMap<string, Replayed>;
  messages: ReadonlyMap<string, SourceMessage>;
}>;

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

export function initialAsOf(at: string | Date): MemoriesAsOfState {
  return { at: instant(at), memories: new Map(), messages: new Map() };
}

/** The history step a memory event adds. An expiry is a rejection by `{ kind: expiry }` (seed 002). */
function stepOf(event: MemoryEvent, at: string): MemoryHistoryEntry {
  switch (event.type) {
    case 'MemoryCandidateDetected':
    case 'MemoryReinforced': {
      const { confidence, sourceMessageId } = event.data;
      const step = event.type === 'MemoryCandidateDetected' ? 'detected' : 'reinforced';
      return { at, event: step, confidence, messageId: sourceMessageId };
    }
    case 'MemoryApproved':
      return { at, event: 'approved', by: event.data.by };
    case 'MemoryRejected': {
      const { by, reason } = event.data;
      return { at, event: 'rejected', by, ...(typeof reason === 'string' ? { reason } : {}) };
    }
    case 'MemoryExpired':
      return { at, event: 'rejected', by: event.data.by, reason: event.data.reason };
    case 'MemoryEvicted':
      return { at, event: 'evicted', reason: event.data.reason };
    case 'MemoryDeleted':
      return { at, event: 'deleted', by: event.data.by, reason: event.data.reason };
    case 'MemorySuperseded':
      return { at, event: 'superseded', supersededBy: event.data.supersededBy };
    default:
      return assertNever(event);
  }
}

/** One memory event through the shared fold, its step appended to the memory's history. */
function replayMemory(
  state: MemoriesAsOfState,
  event: MemoryEvent,
  input: AsOfEvent,
): MemoriesAsOfState {
  const { memoryId } = event.data;
  const previous = state.memories.get(memoryId);
  const folded = evolveMemory(previous?.memory, event);
  // An event about a memory not (or no longer) known changes nothing, as in the read model.
  if (folded === undefined) return state;
  const { content } = folded;
  // A shredded detection (erasure) leaves the memory without its words.
  const memory: Memory =
    event.type === 'MemoryCandidateDetected' && (input.erased || typeof content !== 'string')
      ? { ...folded, content: null }
      : folded;
  const history = [...(previous?.history ?? []), stepOf(event, input.metadata.occurredAt)];
  return { ...state, memories: new Map(state.memories).set(memoryId, { memory, history }) };
}

/** Folds one event; events must come in the store's global order. Later ones are skipped. */
export function replayAsOf(state: MemoriesAsOfState, input: AsOfEvent): MemoriesAsOfState {
  const at = input.metadata.occurredAt;
  if (instant(at) > state.at) return state;
  // The codec decodes only the catalog's types: a stored event is a DomainEvent.
  const event = input.event as DomainEvent;
  switch (event.type) {
    case 'MessageRecorded': {
      const { data } = event;
      const text = input.erased || typeof data.text !== 'string' ? '' : data.text;
      const message = { messageId: data.messageId, excerpt: sourceExcerpt(text), at };
      return { ...state, messages: new Map(state.messages).set(data.messageId, message) };
    }
    case 'MemoryCandidateDetected':
    case 'MemoryReinforced':
    case 'MemoryApproved':
    case 'MemoryRejected':
    case 'MemoryExpired':
    case 'MemoryEvicted':
    case 'MemoryDeleted':
    case 'MemorySuperseded':
      return replayMemory(state, event, input);
    case 'MemoriesUsed': {
      const memories = new Map(state.memories);
      for (const memoryId of new Set(event.data.memoryIds)) {
        const used = memories.get(memoryId);
        if (used)
          memories.set(memoryId, { ...used, history: [...used.history, { at, event: 'used' }] });
      }
      return { ...state, memories };
    }
    case 'MemoriesWiped': {
      // The memories of earlier generations are gone; the conversation stays. The read model drops
      // all the user's rows: it never holds a memory detected before the wipe it is replayed after.
      const { generation } = event.data;
      const kept = [...state.memories].filter(([, { memory }]) => memory.generation >= generation);
      return { ...state, memories: new Map(kept) };
    }
    default:
      return state;
  }
}

/** The memories as they stood, in the order they were first detected. */
export function asOfResult(state: MemoriesAsOfState): MemoryAsOf[] {
  return [...state.memories.values()].map(({ memory, history }) => ({
    memoryId: memory.memoryId,
    kind: memory.kind,
    content: memory.content,
    confidence: memory.confidence,
    ...(memory.dueAt === undefined ? {} : { dueAt: memory.dueAt }),
    generation: memory.generation,
    ...reportMemoryStatus(memory.status, memory.status === 'rejected' ? memory.reason : undefined),
    ...(memory.status === 'superseded' ? { supersededBy: memory.supersededBy } : {}),
    sourceMessage: state.messages.get(memory.sourceMessageId) ?? null,
    history: [...history],
  }));
}

/**
 * A user's memories as they stood at `at`, by replaying their events (in global order) whose
 * `occurredAt` is at or before `at`: each memory with its status then, its source message (an excerpt
 * of at most 200 characters) and its history. A wipe removes the memories of earlier generations.
 */
export function memoriesAsOf(events: Iterable<AsOfEvent>, at: string | Date): MemoryAsOf[] {
  let state = initialAsOf(at);
  for (const event of events) state = replayAsOf(state, event);
  return asOfResult(state);
}
