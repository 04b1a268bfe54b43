import { assertNever, type Decider } from '../decider';
import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from './memory-policy';
import type { AgentEvent, PolicyEvent } from './policy-events';

/** Fields a policy may leave out (none), and a change remove with null. */
const REMOVABLE_FIELDS = ['autoApproveAbove', 'llmCallsPerUserPerDay'] as const;
type RemovableField = (typeof REMOVABLE_FIELDS)[number];

/**
 * The fields to change; absent ones keep their value, null removes a removable one
 * (`autoApproveAbove: null`: no threshold; `llmCallsPerUserPerDay: null`: no budget).
 */
export type MemoryPolicyChanges = Partial<Omit<MemoryPolicy, RemovableField>> & {
  [Field in RemovableField]?: MemoryPolicy[Field] | null;
};

export type ChangeMemoryPolicy = Readonly<{
  type: 'ChangeMemoryPolicy';
  changes: MemoryPolicyChanges;
  changedBy: string;
}>;

export function applyPolicyChanges(
  current: MemoryPolicy,
  changes: MemoryPolicyChanges,
): MemoryPolicy {
  const merged: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null && (REMOVABLE_FIELDS as readonly string[]).includes(field)) {
      delete merged[field];
    } else {
      merged[field] = value;
    }
  }
  // An undefined removable field is the same as an absent one: keep the key out of the event.
  for (const field of REMOVABLE_FIELDS) if (merged[field] === undefined) delete merged[field];
  return merged as MemoryPolicy;
}

function samePolicy(a: MemoryPolicy, b: MemoryPolicy): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof MemoryPolicy>;
  return [...keys].every((key) => a[key] === b[key]);
}

/** A workspace's memory policy: one stream per workspace; a change to the same values records nothing. */
export const policyDecider: Decider<ChangeMemoryPolicy, PolicyEvent, MemoryPolicy> = {
  initialState: () => DEFAULT_MEMORY_POLICY,
  decide: (command, state) => {
    switch (command.type) {
      case 'ChangeMemoryPolicy': {
        const policy = applyPolicyChanges(state, command.changes);
        if (samePolicy(policy, state)) return [];
        return [{ type: 'MemoryPolicyChanged', data: { policy, changedBy: command.changedBy } }];
      }
      default:
        return assertNever(command.type);
    }
  },
  evolve: (_, event) => {
    switch (event.type) {
      case 'MemoryPolicyChanged':
        return event.data.policy;
      default:
        return assertNever(event.type);
    }
  },
};

export type ToggleAgentMemory = Readonly<{
  type: 'ToggleAgentMemory';
  agentId: string;
  enabled: boolean;
  changedBy: string;
}>;

/** "Enable Memory" per agent (seed 002); on by default. */
export const agentMemoryDecider: Decider<ToggleAgentMemory, AgentEvent, { enabled: boolean }> = {
  initialState: () => ({ enabled: true }),
  decide: (command, state) => {
    switch (command.type) {
      case 'ToggleAgentMemory':
        if (command.enabled === state.enabled) return [];
        return [
          {
            type: 'AgentMemoryToggled',
            data: {
              agentId: command.agentId,
              enabled: command.enabled,
              changedBy: command.changedBy,
            },
          },
        ];
      default:
        return assertNever(command.type);
    }
  },
  evolve: (_, event) => {
    switch (event.type) {
      case 'AgentMemoryToggled':
        return { enabled: event.data.enabled };
      default:
        return assertNever(event.type);
    }
  },
};
