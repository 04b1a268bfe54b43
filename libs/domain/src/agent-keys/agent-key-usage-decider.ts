import { assertNever, type Decider } from '../decider';
import type { AgentKeyUsed } from './agent-key-events';

export type RecordAgentKeyUse = Readonly<{
  type: 'RecordAgentKeyUse';
  keyId: string;
  agentId: string;
}>;

/**
 * The last uses of a workspace's keys, as a daily log (`workspaceStream(ws, 'agent-key-usage', day)`,
 * as memory usage is): nothing refuses a use, so the stream is appended to without being read, and no
 * key's own stream grows with its traffic.
 */
export const agentKeyUsageDecider: Decider<RecordAgentKeyUse, AgentKeyUsed, null> = {
  initialState: () => null,
  decide: (command) => [
    { type: 'AgentKeyUsed', data: { keyId: command.keyId, agentId: command.agentId } },
  ],
  evolve: (state, event) => {
    switch (event.type) {
      case 'AgentKeyUsed':
        return state;
      default:
        return assertNever(event.type);
    }
  },
};
