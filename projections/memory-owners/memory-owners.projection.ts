import type { HandledBy, Projection } from '../runner/projection';
import { MemoryOwner } from './memory-owners.entity';

const HANDLES = ['MemoryCandidateDetected'] as const;

export const memoryOwnersProjection: Projection<MemoryOwner, HandledBy<typeof HANDLES>> = {
  name: 'memory_owners',
  entity: MemoryOwner,
  // The owner is part of the key so that erasure (UserErased) deletes the user's rows like everywhere else.
  key: ['workspaceId', 'userId', 'memoryId'],
  handles: HANDLES,
  keysOf: () => [],
  apply: (event) => [
    {
      kind: 'upsert',
      row: {
        workspaceId: event.metadata.workspaceId,
        memoryId: event.event.data.memoryId,
        userId: event.metadata.userId,
      },
    },
  ],
};
