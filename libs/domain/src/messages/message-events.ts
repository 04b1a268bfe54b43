import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export type MessageData = {
  messageId: string;
  sessionId: string;
  role: MessageRole;
  channel: string;
  text: string;
  agentId?: string;
};

export type MessageRecorded = Event<'MessageRecorded', MessageData>;

export type MessageEvent = MessageRecorded;

export const MESSAGE_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'MessageRecorded', version: 1, personalFields: ['text'] },
];
