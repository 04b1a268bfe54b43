import type { EntityManager } from 'typeorm';
import { AGENT_MEMORY_BY_DEFAULT } from '../agent-settings/agent-settings.query';

/** An agent of the workspace, as an admin's agents page lists it. */
export type WorkspaceAgent = Readonly<{
  agentId: string;
  memoryEnabled: boolean;
  /** When its messages were first and last recorded, and how many; null if none was. */
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
  messageCount: number;
  /** The last switch of "Enable Memory" and who made it; null if never switched. */
  updatedAt: Date | null;
  updatedBy: string | null;
}>;

type Row = {
  agent_id: string;
  memory_enabled: boolean | null;
  first_seen_at: Date | null;
  last_seen_at: Date | null;
  message_count: number | null;
  updated_at: Date | null;
  updated_by: string | null;
};

/**
 * Every agent of the workspace, by id: those its messages came from (`seen_agents`), those an admin
 * switched (`agent_settings`) and those given a service key (`agent_keys`: an agent gets its key
 * before its first message), each with its memory on or off.
 */
export async function findWorkspaceAgents(
  manager: EntityManager,
  workspaceId: string,
): Promise<WorkspaceAgent[]> {
  const rows = await manager.query<Row[]>(
    `SELECT coalesce(s.agent_id, a.agent_id, k.agent_id) AS agent_id, a.memory_enabled,
            s.first_seen_at, s.last_seen_at, s.message_count, a.updated_at, a.updated_by
       FROM (SELECT * FROM seen_agents WHERE workspace_id = $1) s
       FULL JOIN (SELECT * FROM agent_settings WHERE workspace_id = $1) a
         ON a.agent_id = s.agent_id
       FULL JOIN (SELECT DISTINCT agent_id FROM agent_keys WHERE workspace_id = $1) k
         ON k.agent_id = coalesce(s.agent_id, a.agent_id)
      ORDER BY 1`,
    [workspaceId],
  );
  return rows.map((row) => ({
    agentId: row.agent_id,
    memoryEnabled: row.memory_enabled ?? AGENT_MEMORY_BY_DEFAULT,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    messageCount: row.message_count ?? 0,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  }));
}
