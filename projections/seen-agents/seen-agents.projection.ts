import type { HandledBy, Projection } from '../runner/projection';
import { SeenAgent } from './seen-agents.entity';

const HANDLES = ['MessageRecorded'] as const;

/**
 * The agents each workspace's messages came from, workspace-level (partitioned by workspace). Kept
 * apart from `agent_settings` on purpose: the process managers keep the agent settings they read
 * until that projection applies an event it handles, and every message would be one.
 */
export const seenAgentsProjection: Projection<SeenAgent, HandledBy<typeof HANDLES>> = {
  name: 'seen_agents',
  entity: SeenAgent,
  key: ['workspaceId', 'agentId'],
  handles: HANDLES,
  keysOf: (event) => {
    const { agentId } = event.event.data;
    return agentId === undefined ? [] : [{ workspaceId: event.metadata.workspaceId, agentId }];
  },
  apply: (event, rows) => {
    const { agentId } = event.event.data;
    if (agentId === undefined) return [];
    const key = { workspaceId: event.metadata.workspaceId, agentId };
    const at = new Date(event.metadata.occurredAt);
    const seen = rows.get(key);
    // A client may date a message in the past: first and last seen are the extremes, not the latest.
    const row: SeenAgent = seen
      ? {
          ...seen,
          firstSeenAt: at < seen.firstSeenAt ? at : seen.firstSeenAt,
          lastSeenAt: at > seen.lastSeenAt ? at : seen.lastSeenAt,
          messageCount: seen.messageCount + 1,
        }
      : { ...key, firstSeenAt: at, lastSeenAt: at, messageCount: 1 };
    return [{ kind: 'upsert', row }];
  },
};
