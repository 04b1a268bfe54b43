import type { EntityManager } from 'typeorm';
import { AgentSetting } from './agent-settings.entity';

/** Memory is enabled for an agent unless an admin switched it off. */
export async function isAgentMemoryEnabled(
  manager: EntityManager,
  workspaceId: string,
  agentId: string,
): Promise<boolean> {
  const row = await manager.findOne(AgentSetting, { where: { workspaceId, agentId } });
  return row?.memoryEnabled ?? true;
}
