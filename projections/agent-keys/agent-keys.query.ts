import type { EntityManager } from 'typeorm';
import { AgentKey } from './agent-keys.entity';

/** An agent's keys, oldest first (RLS: the caller's workspace). */
export function findAgentKeys(
  manager: EntityManager,
  workspaceId: string,
  agentId: string,
): Promise<AgentKey[]> {
  return manager.find(AgentKey, {
    where: { workspaceId, agentId },
    order: { createdAt: 'ASC', keyId: 'ASC' },
  });
}

/** What authenticating a key needs of its row. */
export type PresentedAgentKey = Pick<
  AgentKey,
  'workspaceId' | 'keyId' | 'agentId' | 'digest' | 'revokedAt'
>;

/**
 * The rows of the key id a request presents, before anyone is known: `manager` must be in a
 * transaction (the setting is local to it), and RLS shows only the rows of that id
 * (`agent_keys_presented`). Key ids are random UUIDs, so there is one row at most in practice; the
 * caller compares the secret with each.
 */
export async function findPresentedAgentKey(
  manager: EntityManager,
  keyId: string,
): Promise<PresentedAgentKey[]> {
  await manager.query(`SELECT set_config('engram.agent_key_id', $1, true)`, [keyId]);
  return manager.find(AgentKey, {
    select: { workspaceId: true, keyId: true, agentId: true, digest: true, revokedAt: true },
    where: { keyId },
  });
}
