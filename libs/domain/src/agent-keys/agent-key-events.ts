import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

/**
 * A service key given to an agent. Only the SHA-256 digest of its secret is recorded: the secret is
 * shown once to the admin who asked for it and exists nowhere else, so the log (and every export or
 * backup of it) never holds a usable credential.
 */
export type AgentKeyIssued = Event<
  'AgentKeyIssued',
  { keyId: string; agentId: string; name?: string; digest: string; issuedBy: string }
>;
export type AgentKeyRevoked = Event<
  'AgentKeyRevoked',
  { keyId: string; agentId: string; revokedBy: string }
>;
/**
 * The key authenticated at least one request around `metadata.occurredAt` (its last use then). Written
 * by the API in batches, at most once per key per few minutes per process, never per request.
 */
export type AgentKeyUsed = Event<'AgentKeyUsed', { keyId: string; agentId: string }>;

export type AgentKeyEvent = AgentKeyIssued | AgentKeyRevoked;

/**
 * No personal fields: the key's name is an admin's label for a credential, the ids are the agent's and
 * the admin's, and the streams are the workspace's (no user's data key would cover them).
 */
export const AGENT_KEY_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'AgentKeyIssued', version: 1, personalFields: [] },
  { type: 'AgentKeyRevoked', version: 1, personalFields: [] },
  { type: 'AgentKeyUsed', version: 1, personalFields: [] },
];
