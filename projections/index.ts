import type { AnyProjection } from './runner/projection';
import { UserStreamStats } from './user-stream-stats/user-stream-stats.entity';
import { UserStreamStats1764400001000 } from './user-stream-stats/user-stream-stats.migration';
import { userStreamStatsProjection } from './user-stream-stats/user-stream-stats.projection';

export * from './runner/projection';
export * from './runner/projection-runner';
export * from './runner/rebuild';
export * from './runner/checkpoints';
export * from './user-stream-stats/user-stream-stats.entity';
export * from './user-stream-stats/user-stream-stats.projection';
export * from './user-stream-stats/user-stream-stats.query';

/** Every read model: the worker runs these, the data source maps their entities, migrations create them. */
export const PROJECTIONS: readonly AnyProjection[] = [userStreamStatsProjection];
export const READ_MODEL_ENTITIES = [UserStreamStats];
export const READ_MODEL_MIGRATIONS = [UserStreamStats1764400001000];
