import { readModel } from '../read-model';
import { MemoryOwner } from './memory-owners.entity';
import { MemoryOwners1764400003002 } from './memory-owners.migration';
import { memoryOwnersProjection } from './memory-owners.projection';

export * from './memory-owners.entity';
export * from './memory-owners.projection';
export * from './memory-owners.query';

export const memoryOwnersReadModel = readModel({
  projection: memoryOwnersProjection,
  entity: MemoryOwner,
  migrations: [MemoryOwners1764400003002],
});
