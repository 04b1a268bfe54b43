import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { memoryDecider, userStream, type ReviewMode } from '@engram/domain';
import { EventCodec, handleCommand, type EventStore } from '@engram/event-store';
import { EVENT_STORE } from '@engram/platform';
import type { TestApp } from '../test-app';

export type Owner = Readonly<{ workspaceId: string; userId: string }>;

/**
 * A pending memory candidate (or one approved at once in `auto` mode), written through the app's own
 * store and codec: no wait for the extractor in the background. Its id.
 */
export async function detectMemory(
  t: TestApp,
  owner: Owner,
  content: string,
  mode: ReviewMode,
): Promise<string> {
  const memoryId = randomUUID();
  const sourceMessageId = randomUUID();
  await handleCommand(
    { store: t.app.get<EventStore>(EVENT_STORE), codec: t.app.get(EventCodec) },
    userStream(owner.workspaceId, owner.userId, 'memory', memoryId),
    memoryDecider,
    {
      type: 'DetectMemoryCandidate',
      data: {
        memoryId,
        kind: 'preference',
        content,
        confidence: 0.8,
        sourceMessageId,
        sourceExcerpt: content,
        sessionId: 'sess-1',
        generation: 0,
      },
      review: { mode },
    },
    {
      metadata: {
        ...owner,
        causationId: sourceMessageId,
        correlationId: randomUUID(),
        occurredAt: new Date().toISOString(),
      },
    },
  );
  return memoryId;
}

/** An action proposed through the API: pending, or confirmed at once. Its id. */
export async function proposeAction(
  t: TestApp,
  owner: Owner,
  agentToken: string,
  requiresConfirmation: boolean,
): Promise<string> {
  const proposed = await request(t.http)
    .post(`/v1/workspaces/${owner.workspaceId}/users/${owner.userId}/actions`)
    .set('Authorization', `Bearer ${agentToken}`)
    .send({ tool: 'gmail_send', summary: 'Relance', channel: 'web', requiresConfirmation })
    .expect(201);
  return proposed.body.actionId as string;
}
