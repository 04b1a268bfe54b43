import { readModel } from '../read-model';
import { SeenAgent } from './seen-agents.entity';
import { SeenAgents1764400005011 } from './seen-agents.migration';
import { seenAgentsProjection } from './seen-agents.projection';

export * from './seen-agents.entity';
export * from './seen-agents.projection';
export * from './workspace-agents.query';

export const seenAgentsReadModel = readModel({
  projection: seenAgentsProjection,
  entity: SeenAgent,
  migrations: [SeenAgents1764400005011],
});
