import { readModel } from '../read-model';
import { AgentSetting } from './agent-settings.entity';
import { AgentSettings1764400003001 } from './agent-settings.migration';
import { agentSettingsProjection } from './agent-settings.projection';

export * from './agent-settings.entity';
export * from './agent-settings.projection';
export * from './agent-settings.query';

export const agentSettingsReadModel = readModel({
  projection: agentSettingsProjection,
  entity: AgentSetting,
  migrations: [AgentSettings1764400003001],
});
