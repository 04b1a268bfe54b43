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

/** The extractor could not analyse this message (LLM down, invalid answer...); kept for audit and retries. */
export type MemoryExtractionFailed = Event<
  'MemoryExtractionFailed',
  { messageId: string; reason: string; model: string }
>;

export type MessageEvent = MessageRecorded | MemoryExtractionFailed;

export const MESSAGE_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'MessageRecorded', version: 1, personalFields: ['text'] },
  { type: 'MemoryExtractionFailed', version: 1, personalFields: [] },
];
