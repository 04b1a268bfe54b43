/**
 * The projections an agent's context is built from (GET …/context): a write is visible in the context
 * once all of them applied it, which is what `minPosition` waits for.
 */
export const CONTEXT_READ_MODELS: readonly string[] = [
  'session_messages',
  'sessions',
  'memories',
  'memory_settings',
  'identity_cards',
  'actions',
  'workspace_policies',
  'agent_settings',
];
