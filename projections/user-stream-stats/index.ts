import { readModel } from '../read-model';
import { UserStreamStats } from './user-stream-stats.entity';
import { UserStreamStats1764400001000 } from './user-stream-stats.migration';
import { userStreamStatsProjection } from './user-stream-stats.projection';

export * from './user-stream-stats.entity';
export * from './user-stream-stats.projection';
export * from './user-stream-stats.query';

export const userStreamStatsReadModel = readModel({
  projection: userStreamStatsProjection,
  entity: UserStreamStats,
  migrations: [UserStreamStats1764400001000],
});
