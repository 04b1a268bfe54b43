import { readModel } from '../read-model';
import { MemoryRecord } from './memories.entity';
import { Memories1764400002002 } from './memories.migration';
import { MemoriesEvictable1764400005010 } from './memories-evictable.migration';
import { MemoriesSuperseded1764400020700 } from './memories-superseded.migration';
import { memoriesProjection } from './memories.projection';

export * from './memories.entity';
export * from './memories.projection';
export * from './memories.query';

export const memoriesReadModel = readModel({
  projection: memoriesProjection,
  entity: MemoryRecord,
  migrations: [
    Memories1764400002002,
    MemoriesEvictable1764400005010,
    MemoriesSuperseded1764400020700,
  ],
});
