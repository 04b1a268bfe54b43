import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';
import type { MemoryPolicy } from './memory-policy';

export type MemoryPolicyChanged = Event<
  'MemoryPolicyChanged',
  { policy: MemoryPolicy; changedBy: string }
>;
export type AgentMemoryToggled = Event<
  'AgentMemoryToggled',
  { agentId: string; enabled: boolean; changedBy: string }
>;

export type PolicyEvent = MemoryPolicyChanged;
export type AgentEvent = AgentMemoryToggled;

export const POLICY_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'MemoryPolicyChanged', version: 1, personalFields: [] },
  { type: 'AgentMemoryToggled', version: 1, personalFields: [] },
];
