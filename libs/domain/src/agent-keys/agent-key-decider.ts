import { DomainConflictError, DomainNotFoundError, assertNever, type Decider } from '../decider';
import type { AgentKeyEvent } from './agent-key-events';

export type IssueAgentKey = Readonly<{
  type: 'IssueAgentKey';
  keyId: string;
  agentId: string;
  name?: string | undefined;
  /** SHA-256 of the secret (hex); the secret itself never reaches the domain. */
  digest: string;
  issuedBy: string;
}>;

export type RevokeAgentKey = Readonly<{
  type: 'RevokeAgentKey';
  keyId: string;
  agentId: string;
  revokedBy: string;
}>;

export type AgentKeyCommand = IssueAgentKey | RevokeAgentKey;

export type AgentKeyState =
  | Readonly<{ status: 'absent' }>
  | Readonly<{ status: 'active'; agentId: string; digest: string }>
  | Readonly<{ status: 'revoked'; agentId: string }>;

/** A key of another agent is not found under this one: the answer never tells which keys exist elsewhere. */
function notFound(command: AgentKeyCommand): DomainNotFoundError {
  return new DomainNotFoundError(`Agent ${command.agentId} has no key ${command.keyId}`);
}

/**
 * One stream per key (`workspaceStream(ws, 'agent-key', keyId)`): issued once, revoked once. Revoking
 * again records nothing (DELETE is idempotent); revoking a key that does not exist is a 404.
 */
export const agentKeyDecider: Decider<AgentKeyCommand, AgentKeyEvent, AgentKeyState> = {
  initialState: () => ({ status: 'absent' }),
  decide: (command, state) => {
    switch (command.type) {
      case 'IssueAgentKey': {
        if (state.status === 'absent') {
          const { keyId, agentId, name, digest, issuedBy } = command;
          return [
            {
              type: 'AgentKeyIssued',
              data: { keyId, agentId, ...(name !== undefined ? { name } : {}), digest, issuedBy },
            },
          ];
        }
        // The same issue again (a retry of the append) records nothing; anything else is a clash.
        if (
          state.status === 'active' &&
          state.agentId === command.agentId &&
          state.digest === command.digest
        ) {
          return [];
        }
        throw new DomainConflictError(`Key ${command.keyId} already exists`);
      }
      case 'RevokeAgentKey': {
        if (state.status === 'absent' || state.agentId !== command.agentId) throw notFound(command);
        if (state.status === 'revoked') return [];
        return [
          {
            type: 'AgentKeyRevoked',
            data: { keyId: command.keyId, agentId: command.agentId, revokedBy: command.revokedBy },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'AgentKeyIssued':
        return { status: 'active', agentId: event.data.agentId, digest: event.data.digest };
      case 'AgentKeyRevoked':
        return { status: 'revoked', agentId: event.data.agentId };
      default:
        return assertNever(event);
    }
  },
};
