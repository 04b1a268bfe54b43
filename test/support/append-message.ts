import { randomUUID } from 'node:crypto';
import { EVENT_CATALOG, userStream } from '@engram/domain';
import { EventCodec, type EventStore } from '@engram/event-store';

const plain = new EventCodec(EVENT_CATALOG);

export type MessageOwner = Readonly<{
  workspaceId: string;
  userId: string;
  occurredAt: string;
  text?: string;
}>;

const DEFAULT_OWNER: MessageOwner = {
  workspaceId: 'w',
  userId: 'u',
  occurredAt: '2026-06-08T16:40:00.000Z',
};

/** Appends one short user message (its own stream, payload in clear); its id and position. */
export async function appendMessage(
  store: EventStore,
  owner: MessageOwner = DEFAULT_OWNER,
): Promise<{ messageId: string; position: bigint }> {
  const { workspaceId, userId, occurredAt, text = 'hi' } = owner;
  const messageId = randomUUID();
  const record = await plain.encode({
    eventId: messageId,
    event: {
      type: 'MessageRecorded',
      data: { messageId, sessionId: 's', role: 'user', channel: 'web', text },
    },
    metadata: { workspaceId, userId, causationId: 'c', correlationId: 'c', occurredAt },
  });
  const result = await store.appendToStream(
    userStream(workspaceId, userId, 'message', messageId),
    [record],
    {
      expectedRevision: 'no_stream',
    },
  );
  return { messageId, position: result.position };
}
