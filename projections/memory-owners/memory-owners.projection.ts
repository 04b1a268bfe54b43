import type { MemoryCandidateDetected } from '@engram/domain';
import type { Projection } from '../runner/projection';
import { MemoryOwner } from './memory-owners.entity';

export const memoryOwnersProjection: Projection<MemoryOwner> = {
  name: 'memory_owners',
  entity: MemoryOwner,
  // The owner is part of the key so that erasure (UserErased) deletes the user's rows like everywhere else.
  key: ['workspaceId', 'userId', 'memoryId'],
  handles: ['MemoryCandidateDetected'],
  keysOf: () => [],
  apply: (event) => [
    {
      kind: 'upsert',
      row: {
        workspaceId: event.metadata.workspaceId,
        memoryId: (event.event as MemoryCandidateDetected).data.memoryId,
        userId: event.metadata.userId,
      },
    },
  ],
};
