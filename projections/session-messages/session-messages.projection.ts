import type { HandledBy, Projection } from '../runner/projection';
import { SessionMessage } from './session-messages.entity';

const HANDLES = ['MessageRecorded'] as const;

/** Every recorded message, one row each; a message is recorded once, so no existing row is needed. */
export const sessionMessagesProjection: Projection<SessionMessage, HandledBy<typeof HANDLES>> = {
  name: 'session_messages',
  entity: SessionMessage,
  key: ['workspaceId', 'userId', 'messageId'],
  handles: HANDLES,
  keysOf: () => [],
  apply: (event) => {
    const { data } = event.event;
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
