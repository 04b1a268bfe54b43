import { readModel } from '../read-model';
import { AgentKey } from './agent-keys.entity';
import { AgentKeys1764400019000 } from './agent-keys.migration';
import { agentKeysProjection } from './agent-keys.projection';

export * from './agent-keys.entity';
export * from './agent-keys.projection';
export * from './agent-keys.query';

export const agentKeysReadModel = readModel({
  projection: agentKeysProjection,
  entity: AgentKey,
  migrations: [AgentKeys1764400019000],
});
