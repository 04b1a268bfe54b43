import { agentMemoryDecider } from '@engram/domain';
import type { EntityManager } from 'typeorm';
import { AgentSetting } from './agent-settings.entity';

/** An agent nobody switched has memory on (the agent decider's first state). */
export const AGENT_MEMORY_BY_DEFAULT = agentMemoryDecider.initialState().enabled;

/** Memory is enabled for an agent unless an admin switched it off. */
export async function isAgentMemoryEnabled(
  manager: EntityManager,
  workspaceId: string,
  agentId: string,
): Promise<boolean> {
  const row = await manager.findOne(AgentSetting, { where: { workspaceId, agentId } });
  return row?.memoryEnabled ?? AGENT_MEMORY_BY_DEFAULT;
}
