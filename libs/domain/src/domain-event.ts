import type { ActionEvent } from './actions/action-events';
import type { AgentKeyEvent, AgentKeyUsed } from './agent-keys/agent-key-events';
import type { AuditEvent } from './audit/audit-events';
import type { UserErased } from './erasure/erasure-events';
import type { IdentityCardEvent } from './identity-card/identity-card-events';
import type { LlmUsageEvent } from './llm-usage/llm-usage-events';
import type { MemoriesUsed, MemoryEvent } from './memories/memory-events';
import type { MemoryProfileEvent } from './memory-profile/memory-profile-events';
import type { MessageEvent } from './messages/message-events';
import type { ParkedEventDecision } from './operations/parked-event-events';
import type { AgentEvent, PolicyEvent } from './policy/policy-events';
import type { SessionEvent } from './sessions/session-events';
import type { WebhookEvent } from './webhooks/webhook-events';

/** Every event Engram stores, as one union (the catalog lists the same types with their versions). */
export type DomainEvent =
  | MessageEvent
  | SessionEvent
  | MemoryEvent
  | MemoriesUsed
  | MemoryProfileEvent
  | IdentityCardEvent
  | PolicyEvent
  | AgentEvent
  | ActionEvent
  | AuditEvent
  | UserErased
  | ParkedEventDecision
  | LlmUsageEvent
  | WebhookEvent
  | AgentKeyEvent
  | AgentKeyUsed;

export type DomainEventType = DomainEvent['type'];

/** The events of the given types: what a consumer declaring `types` receives. */
export type EventOfType<Type extends DomainEventType> = Extract<DomainEvent, { type: Type }>;

/**
 * The types of the union `E`, each named once: a type of `E` left out, or one not in `E`, does not
 * compile. For lists a consumer must keep whole (a projection handling every memory event).
 */
export function typesOf<E extends DomainEvent>(
  types: Readonly<Record<E['type'], true>>,
): readonly E['type'][] {
  return Object.keys(types) as E['type'][];
}
