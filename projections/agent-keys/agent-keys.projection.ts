import { assertNever } from '@engram/domain';
import type { HandledBy, Projection } from '../runner/projection';
import { AgentKey } from './agent-keys.entity';

const HANDLES = ['AgentKeyIssued', 'AgentKeyRevoked', 'AgentKeyUsed'] as const;

/**
 * One row per key. A use or a revocation of a key the read model does not hold changes nothing (the
 * decider only revokes issued keys, and a key is used only once issued). The last use only moves
 * forward, so uses recorded late by another API process cannot set it back.
 */
export const agentKeysProjection: Projection<AgentKey, HandledBy<typeof HANDLES>> = {
  name: 'agent_keys',
  entity: AgentKey,
  key: ['workspaceId', 'keyId'],
  handles: HANDLES,
  keysOf: (event) => [{ workspaceId: event.metadata.workspaceId, keyId: event.event.data.keyId }],
  apply: (event, rows) => {
    const workspaceId = event.metadata.workspaceId;
    const at = new Date(event.metadata.occurredAt);
    switch (event.event.type) {
      case 'AgentKeyIssued': {
        const { keyId, agentId, name, digest, issuedBy } = event.event.data;
        return [
          {
            kind: 'upsert',
            row: {
              workspaceId,
              keyId,
              agentId,
              name: name ?? null,
              digest,
              createdAt: at,
              createdBy: issuedBy,
              lastUsedAt: null,
              revokedAt: null,
              revokedBy: null,
            },
          },
        ];
      }
      case 'AgentKeyRevoked': {
        const row = rows.get({ workspaceId, keyId: event.event.data.keyId });
        if (!row || row.revokedAt !== null) return [];
        return [
          { kind: 'upsert', row: { ...row, revokedAt: at, revokedBy: event.event.data.revokedBy } },
        ];
      }
      case 'AgentKeyUsed': {
        const row = rows.get({ workspaceId, keyId: event.event.data.keyId });
        if (!row || (row.lastUsedAt !== null && row.lastUsedAt >= at)) return [];
        return [{ kind: 'upsert', row: { ...row, lastUsedAt: at } }];
      }
      default:
        return assertNever(event.event);
    }
  },
};
