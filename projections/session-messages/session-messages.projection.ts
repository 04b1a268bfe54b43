import type { MessageRecorded } from '@engram/domain';
import type { Projection } from '../runner/projection';
import { SessionMessage } from './session-messages.entity';

/** Every recorded message, one row each; a message is recorded once, so no existing row is needed. */
export const sessionMessagesProjection: Projection<SessionMessage> = {
  name: 'session_messages',
  entity: SessionMessage,
  key: ['workspaceId', 'userId', 'messageId'],
  handles: ['MessageRecorded'],
  keysOf: () => [],
  apply: (event) => {
    if (event.event.type !== 'MessageRecorded') return [];
    const { data } = event.event as MessageRecorded;
    const row: SessionMessage = {
      workspaceId: event.metadata.workspaceId,
      userId: event.metadata.userId,
      messageId: data.messageId,
      sessionId: data.sessionId,
      role: data.role,
      channel: data.channel,
      text: data.text,
      agentId: data.agentId ?? null,
      traceId: event.metadata.traceId ?? null,
      occurredAt: new Date(event.metadata.occurredAt),
      position: event.globalPosition.toString(),
    };
    return [{ kind: 'upsert', row }];
  },
};
