import type { AgentMemoryToggled } from '@engram/domain';
import type { Projection } from '../runner/projection';
import { AgentSetting } from './agent-settings.entity';

export const agentSettingsProjection: Projection<AgentSetting> = {
  name: 'agent_settings',
  entity: AgentSetting,
  key: ['workspaceId', 'agentId'],
  handles: ['AgentMemoryToggled'],
  keysOf: (event) => [
    {
      workspaceId: event.metadata.workspaceId,
      agentId: (event.event as AgentMemoryToggled).data.agentId,
    },
  ],
  apply: (event) => {
    const { agentId, enabled, changedBy } = (event.event as AgentMemoryToggled).data;
    return [
      {
        kind: 'upsert',
        row: {
          workspaceId: event.metadata.workspaceId,
          agentId,
          memoryEnabled: enabled,
          updatedAt: new Date(event.metadata.occurredAt),
          updatedBy: changedBy,
        },
      },
    ];
  },
};
