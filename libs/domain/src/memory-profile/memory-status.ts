import type { MemoryProfileState } from './memory-profile-decider';

type Switch = Pick<MemoryProfileState, 'enabled' | 'pausedUntil'>;

/** The user's memory at `at` (ISO): off, paused until a later instant, or on. On by default. */
export type UserMemoryStatus = 'enabled' | 'disabled' | 'paused';

/** What an agent's request gets: memory on, or who turned it off. */
export type AgentMemoryStatus = 'enabled' | 'agent_disabled' | 'user_disabled' | 'user_paused';

export function userMemoryStatus(settings: Switch | null, at: string): UserMemoryStatus {
  if (!settings) return 'enabled';
  if (!settings.enabled) return 'disabled';
  return settings.pausedUntil === null || Date.parse(settings.pausedUntil) <= Date.parse(at)
    ? 'enabled'
    : 'paused';
}

/** An admin's switch for the agent comes first, then the user's own. */
export function agentMemoryStatus(
  agentEnabled: boolean,
  settings: Switch | null,
  at: string,
): AgentMemoryStatus {
  if (!agentEnabled) return 'agent_disabled';
  const status = userMemoryStatus(settings, at);
  return status === 'enabled' ? 'enabled' : `user_${status}`;
}
