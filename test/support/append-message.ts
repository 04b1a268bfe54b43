import { randomUUID } from 'node:crypto';
import { EVENT_CATALOG, userStream } from '@engram/domain';
import { EventCodec, type EventStore } from '@engram/event-store';

const plain = new EventCodec(EVENT_CATALOG);

/** Appends one short user message of `w/u` (its own stream, payload in clear); its id and position. */
export async function appendMessage(
  store: EventStore,
): Promise<{ messageId: string; position: bigint }> {
  const messageId = randomUUID();
  const record = await plain.encode({
    eventId: messageId,
    event: {
      type: 'MessageRecorded',
      data: { messageId, sessionId: 's', role: 'user', channel: 'web', text: 'hi' },
    },
    metadata: {
      workspaceId: 'w',
      userId: 'u',
      causationId: 'c',
      correlationId: 'c',
      occurredAt: '2026-06-08T16:40:00.000Z',
    },
  });
  const result = await store.appendToStream(userStream('w', 'u', 'message', messageId), [record], {
    expectedRevision: 'no_stream',
  });
  return { messageId, position: result.position };
}
