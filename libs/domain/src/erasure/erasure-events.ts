import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

/** An auditor erased the user: their key is destroyed, their streams and read-model rows deleted. No personal data. */
export type UserErased = Event<'UserErased', { requestedBy: string }>;

export const ERASURE_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'UserErased', version: 1, personalFields: [] },
];
