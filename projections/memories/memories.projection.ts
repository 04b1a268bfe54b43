import {
  isEvictableByCap,
  normalizeContent,
  type MemoryApproved,
  type MemoryCandidateDetected,
  type MemoryDeleted,
  type MemoryExpired,
  type MemoriesUsed,
  type MemoryRejected,
  type MemoryReinforced,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { Projection, RowChange } from '../runner/projection';
import { MemoryRecord } from './memories.entity';

type MemoryKey = Pick<MemoryRecord, 'workspaceId' | 'userId' | 'memoryId'>;

const MEMORY_EVENT_TYPES = [
  'MemoryCandidateDetected',
  'MemoryReinforced',
  'MemoryApproved',
  'MemoryRejected',
  'MemoryExpired',
  'MemoryEvicted',
  'MemoryDeleted',
] as const;

function memoryKey(event: DecodedEvent): MemoryKey | undefined {
  if (!(MEMORY_EVENT_TYPES as readonly string[]).includes(event.event.type)) return undefined;
  const { memoryId } = (event.event as MemoryApproved).data;
  return { workspaceId: event.metadata.workspaceId, userId: event.metadata.userId, memoryId };
}

function usedKeys(event: DecodedEvent): MemoryKey[] {
  const { memoryIds } = (event.event as MemoriesUsed).data;
  const { workspaceId, userId } = event.metadata;
  return memoryIds.map((memoryId) => ({ workspaceId, userId, memoryId }));
}

function detected(key: MemoryKey, event: DecodedEvent): MemoryRecord {
  const { data } = event.event as MemoryCandidateDetected;
  const at = new Date(event.metadata.occurredAt);
  return {
    ...key,
    kind: data.kind,
    content: data.content,
    normalizedContent: normalizeContent(data.content),
    confidence: data.confidence,
    status: 'pending',
    sourceMessageId: data.sourceMessageId,
    sourceExcerpt: data.sourceExcerpt,
    sessionId: data.sessionId,
    dueAt: data.dueAt === undefined ? null : new Date(data.dueAt),
    generation: data.generation,
    createdAt: at,
    decidedAt: null,
    decidedBy: null,
    evictable: false,
    rejectionReason: null,
    lastSeenAt: at,
    lastUsedAt: null,
    seenCount: 1,
    position: event.globalPosition.toString(),
  };
}

/** The next state of an existing memory; `undefined` for an event that does not change it. */
function evolve(current: MemoryRecord, event: DecodedEvent): MemoryRecord | undefined {
  const at = new Date(event.metadata.occurredAt);
  const position = event.globalPosition.toString();
  switch (event.event.type) {
    case 'MemoryReinforced': {
      const { data } = event.event as MemoryReinforced;
      return {
        ...current,
        seenCount: current.seenCount + 1,
        lastSeenAt: at > current.lastSeenAt ? at : current.lastSeenAt,
        confidence: Math.max(current.confidence, data.confidence),
        position,
      };
    }
    case 'MemoryApproved': {
      const { data } = event.event as MemoryApproved;
      return {
        ...current,
        status: 'approved',
        decidedAt: at,
        decidedBy: data.by,
        evictable: isEvictableByCap({ kind: current.kind, approvedBy: data.by }),
        rejectionReason: null,
        position,
      };
    }
    case 'MemoryRejected': {
      const { data } = event.event as MemoryRejected;
      return {
        ...current,
        status: 'rejected',
        decidedAt: at,
        evictable: false,
        decidedBy: data.by,
        rejectionReason: data.reason ?? null,
        position,
      };
    }
    case 'MemoryExpired':
      return {
        ...current,
        status: 'expired',
        decidedAt: at,
        evictable: false,
        decidedBy: (event.event as MemoryExpired).data.by,
        rejectionReason: 'expired',
        position,
      };
    case 'MemoryEvicted':
      // The cap evicts: no one to name in decided_by.
      return {
        ...current,
        status: 'evicted',
        decidedAt: at,
        evictable: false,
        decidedBy: null,
        rejectionReason: null,
        position,
      };
    case 'MemoryDeleted': {
      const { data } = event.event as MemoryDeleted;
      return {
        ...current,
        status: 'deleted',
        decidedAt: at,
        evictable: false,
        decidedBy: data.by,
        content: null,
        normalizedContent: null,
        sourceExcerpt: null,
        rejectionReason: null,
        position,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Every memory of every user. A memory detected again after it was deleted or evicted (same id: same
 * user, generation and normalized content) starts over as a new pending memory. Events about an unknown
 * memory change nothing. A wipe deletes all the user's rows.
 */
export const memoriesProjection: Projection<MemoryRecord> = {
  name: 'memories',
  entity: MemoryRecord,
  key: ['workspaceId', 'userId', 'memoryId'],
  handles: [...MEMORY_EVENT_TYPES, 'MemoriesWiped', 'MemoriesUsed'],
  keysOf: (event) => {
    if (event.event.type === 'MemoriesUsed') return usedKeys(event);
    const key = memoryKey(event);
    return key ? [key] : [];
  },
  apply: (event, rows): RowChange<MemoryRecord>[] => {
    if (event.event.type === 'MemoriesUsed') {
      const at = new Date(event.metadata.occurredAt);
      return usedKeys(event).flatMap((key) => {
        const current = rows.get(key);
        if (!current || (current.lastUsedAt && current.lastUsedAt >= at)) return [];
        return [{ kind: 'upsert' as const, row: { ...current, lastUsedAt: at } }];
      });
    }
    if (event.event.type === 'MemoriesWiped') {
      const { workspaceId, userId } = event.metadata;
      return [{ kind: 'deleteOwner', workspaceId, userId }];
    }
    const key = memoryKey(event);
    if (!key) return [];
    if (event.event.type === 'MemoryCandidateDetected') {
      return [{ kind: 'upsert', row: detected(key, event) }];
    }
    const current = rows.get(key);
    const next = current && evolve(current, event);
    return next ? [{ kind: 'upsert', row: next }] : [];
  },
};
