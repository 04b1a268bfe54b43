import type { HandledBy, Projection } from '../runner/projection';
import { AgentSetting } from './agent-settings.entity';

const HANDLES = ['AgentMemoryToggled'] as const;

export const agentSettingsProjection: Projection<AgentSetting, HandledBy<typeof HANDLES>> = {
  name: 'agent_settings',
  entity: AgentSetting,
  key: ['workspaceId', 'agentId'],
  handles: HANDLES,
  keysOf: (event) => [
    {
      workspaceId: event.metadata.workspaceId,
      agentId: event.event.data.agentId,
    },
  ],
  apply: (event) => {
    const { agentId, enabled, changedBy } = event.event.data;
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
