import {
  assertNever,
  decidedByOf,
  evolveMemory,
  isEvictableByCap,
  normalizeContent,
  typesOf,
  type EventMetadata,
  type Memory,
  type MemoryEvent,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection, RowChange, RowsView } from '../runner/projection';
import { MemoryRecord } from './memories.entity';

type MemoryKey = Pick<MemoryRecord, 'workspaceId' | 'userId' | 'memoryId'>;

/** Every memory event: one added to the union must be listed here, and folded by `evolveMemory`. */
const MEMORY_EVENT_TYPES = typesOf<MemoryEvent>({
  MemoryCandidateDetected: true,
  MemoryReinforced: true,
  MemoryApproved: true,
  MemoryRejected: true,
  MemoryExpired: true,
  MemoryEvicted: true,
  MemoryDeleted: true,
  MemorySuperseded: true,
});

const HANDLES = [...MEMORY_EVENT_TYPES, 'MemoriesWiped', 'MemoriesUsed'] as const;
type Handled = HandledBy<typeof HANDLES>;

function memoryKey(metadata: EventMetadata, memoryId: string): MemoryKey {
  return { workspaceId: metadata.workspaceId, userId: metadata.userId, memoryId };
}

function usedKeys(metadata: EventMetadata, memoryIds: readonly string[]): MemoryKey[] {
  return memoryIds.map((memoryId) => memoryKey(metadata, memoryId));
}

/**
 * The memory a row holds, read back for the shared fold: the row stores the fold's state as columns
 * (`dueAt` aside: only a detection sets it, and the row keeps its column).
 */
function memoryOf(row: MemoryRecord): Memory {
  const facts = {
    memoryId: row.memoryId,
    kind: row.kind,
    content: row.content,
    confidence: row.confidence,
    generation: row.generation,
    sourceMessageId: row.sourceMessageId,
    sourceExcerpt: row.sourceExcerpt,
    sessionId: row.sessionId,
    seenCount: row.seenCount,
    ...(row.supersedes === null ? {} : { supersedes: row.supersedes }),
  };
  const decidedBy = () => {
    if (row.decidedBy === null)
      throw new Error(`memory ${row.memoryId} is ${row.status} by nobody`);
    return row.decidedBy;
  };
  switch (row.status) {
    case 'pending':
    case 'evicted':
      return { ...facts, status: row.status };
    case 'approved':
    case 'deleted':
      return { ...facts, status: row.status, decidedBy: decidedBy() };
    case 'rejected':
      return {
        ...facts,
        status: row.status,
        decidedBy: decidedBy(),
        ...(row.rejectionReason === null ? {} : { reason: row.rejectionReason }),
      };
    case 'expired':
      return { ...facts, status: row.status, decidedBy: decidedBy(), reason: 'expired' };
    case 'superseded':
      if (row.supersededBy === null) throw new Error(`memory ${row.memoryId} superseded by none`);
      return { ...facts, status: row.status, supersededBy: row.supersededBy };
    default:
      return assertNever(row.status);
  }
}

/** The columns that hold the fold's state; the others are the read model's own (times, position). */
function stateColumns(memory: Memory, current: MemoryRecord | undefined) {
  return {
    kind: memory.kind,
    content: memory.content,
    normalizedContent:
      memory.content === null
        ? null
        : (current?.normalizedContent ?? normalizeContent(memory.content)),
    confidence: memory.confidence,
    status: memory.status,
    sourceExcerpt: memory.sourceExcerpt,
    decidedBy: decidedByOf(memory),
    // Recorded per row for the cap's query (the decider applies the same rule).
    evictable:
      memory.status === 'approved' &&
      isEvictableByCap({ kind: memory.kind, approvedBy: memory.decidedBy }),
    rejectionReason:
      memory.status === 'rejected' || memory.status === 'expired' ? (memory.reason ?? null) : null,
    seenCount: memory.seenCount,
    supersedes: memory.supersedes ?? null,
    supersededBy: memory.status === 'superseded' ? memory.supersededBy : null,
  } satisfies Partial<MemoryRecord>;
}

function detected(key: MemoryKey, memory: Memory, event: DecodedEvent): MemoryRecord {
  const at = new Date(event.metadata.occurredAt);
  return {
    ...key,
    ...stateColumns(memory, undefined),
    sourceMessageId: memory.sourceMessageId,
    sessionId: memory.sessionId,
    dueAt: memory.dueAt === undefined ? null : new Date(memory.dueAt),
    generation: memory.generation,
    createdAt: at,
    decidedAt: null,
    lastSeenAt: at,
    lastUsedAt: null,
    position: event.globalPosition.toString(),
  };
}

/** A memory event's row change: the shared fold, then the times this read model keeps. */
function memoryChanges(
  event: DecodedEvent,
  payload: MemoryEvent,
  rows: RowsView<MemoryRecord>,
): RowChange<MemoryRecord>[] {
  const key = memoryKey(event.metadata, payload.data.memoryId);
  if (payload.type === 'MemoryCandidateDetected') {
    const memory = evolveMemory(undefined, payload);
    return memory ? [{ kind: 'upsert', row: detected(key, memory, event) }] : [];
  }
  const current = rows.get(key);
  const memory = current && evolveMemory(memoryOf(current), payload);
  if (!current || !memory) return [];
  const at = new Date(event.metadata.occurredAt);
  const times =
    payload.type === 'MemoryReinforced'
      ? { lastSeenAt: at > current.lastSeenAt ? at : current.lastSeenAt }
      : { decidedAt: at };
  const row = {
    ...current,
    ...stateColumns(memory, current),
    ...times,
    position: event.globalPosition.toString(),
  };
  return [{ kind: 'upsert', row }];
}

/**
 * Every memory of every user: the shared memory fold (`evolveMemory`, as the decider's) stored as
 * columns, with when it was detected, seen, decided and last used. A memory detected again after it
 * was deleted, evicted or superseded (same id: same user, generation and normalized content) starts
 * over as a new pending memory; a superseded one keeps its row (status `superseded`, `supersededBy`),
 * out of the context, which reads approved memories only. Events about an unknown memory change nothing. A wipe deletes all the user's rows
 * (the as-of view keeps the wiping generation's: it replays a user's log, not this table).
 */
export const memoriesProjection: Projection<MemoryRecord, Handled> = {
  name: 'memories',
  entity: MemoryRecord,
  key: ['workspaceId', 'userId', 'memoryId'],
  handles: HANDLES,
  keysOf: ({ event, metadata }) => {
    switch (event.type) {
      case 'MemoriesUsed':
        return usedKeys(metadata, event.data.memoryIds);
      case 'MemoriesWiped':
        return [];
      default:
        return [memoryKey(metadata, event.data.memoryId)];
    }
  },
  apply: (event, rows): RowChange<MemoryRecord>[] => {
    const { event: payload, metadata } = event;
    switch (payload.type) {
      case 'MemoriesUsed': {
        // The LRU of the cap: only this read model keeps when a memory was last put in a context.
        const at = new Date(metadata.occurredAt);
        return usedKeys(metadata, payload.data.memoryIds).flatMap((key) => {
          const current = rows.get(key);
          if (!current || (current.lastUsedAt && current.lastUsedAt >= at)) return [];
          return [{ kind: 'upsert' as const, row: { ...current, lastUsedAt: at } }];
        });
      }
      case 'MemoriesWiped':
        return [
          { kind: 'deleteOwner', workspaceId: metadata.workspaceId, userId: metadata.userId },
        ];
      default:
        return memoryChanges(event, payload, rows);
    }
  },
};
