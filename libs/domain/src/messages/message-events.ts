import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export type MessageRecorded = Event<
  'MessageRecorded',
  {
    messageId: string;
    sessionId: string;
    role: MessageRole;
    channel: string;
    text: string;
    agentId?: string;
  }
>;

export type MessageEvent = MessageRecorded;

export const MESSAGE_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'MessageRecorded', version: 1, personalFields: ['text'] },
];
