import { ACTION_EVENT_DEFINITIONS } from './actions';
import { AGENT_KEY_EVENT_DEFINITIONS } from './agent-keys';
import { AUDIT_EVENT_DEFINITIONS } from './audit';
import type { EventDefinition } from './event-definition';
import { ERASURE_EVENT_DEFINITIONS } from './erasure';
import { IDENTITY_CARD_EVENT_DEFINITIONS } from './identity-card';
import { LLM_USAGE_EVENT_DEFINITIONS } from './llm-usage';
import { MEMORY_PROFILE_EVENT_DEFINITIONS } from './memory-profile';
import { MEMORY_EVENT_DEFINITIONS } from './memories';
import { MESSAGE_EVENT_DEFINITIONS } from './messages';
import { OPERATIONS_EVENT_DEFINITIONS } from './operations';
import { POLICY_EVENT_DEFINITIONS } from './policy';
import { SESSION_EVENT_DEFINITIONS } from './sessions';
import { WEBHOOK_EVENT_DEFINITIONS } from './webhooks';

/** Every event type Engram stores. The codec refuses types that are not here. */
export const EVENT_CATALOG: readonly EventDefinition[] = [
  ...MESSAGE_EVENT_DEFINITIONS,
  ...SESSION_EVENT_DEFINITIONS,
  ...MEMORY_EVENT_DEFINITIONS,
  ...MEMORY_PROFILE_EVENT_DEFINITIONS,
  ...IDENTITY_CARD_EVENT_DEFINITIONS,
  ...POLICY_EVENT_DEFINITIONS,
  ...ACTION_EVENT_DEFINITIONS,
  ...AUDIT_EVENT_DEFINITIONS,
  ...ERASURE_EVENT_DEFINITIONS,
  ...OPERATIONS_EVENT_DEFINITIONS,
  ...LLM_USAGE_EVENT_DEFINITIONS,
  ...WEBHOOK_EVENT_DEFINITIONS,
  ...AGENT_KEY_EVENT_DEFINITIONS,
];
