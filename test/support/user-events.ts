import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  memoryDecider,
  messageDecider,
  userStream,
  type EventMetadata,
  type MessageRecorded,
  type ReviewMode,
} from '@engram/domain';
import { handleCommand, type CommandContext, type DecodedEvent } from '@engram/event-store';
import type { ExtractedCandidate, Llm } from '@engram/llm';
import { catchUpProjections, type WorkerDeps } from './worker-deps';

/**
 * Records a user's message through its decider (session `s1`, web), projects it, and gives it back as
 * a process manager receives it.
 */
export async function recordUserMessage(
  deps: WorkerDeps,
  owner: Readonly<{ workspaceId: string; userId: string }>,
  text: string,
): Promise<DecodedEvent<MessageRecorded>> {
  const messageId = randomUUID();
  const stream = userStream(owner.workspaceId, owner.userId, 'message', messageId);
  await handleCommand(
    deps,
    stream,
    messageDecider,
    {
      type: 'RecordMessage',
      data: { messageId, sessionId: 's1', role: 'user', channel: 'web', text },
    },
    {
      metadata: {
        ...owner,
        causationId: messageId,
        correlationId: messageId,
        occurredAt: DateTime.utc().toISO(),
      },
    },
  );
  await catchUpProjections(deps);
  const [recorded] = await deps.store.readStream(stream);
  return deps.codec.decode<MessageRecorded>(recorded!);
}

/** The worker's LLM with an extractor that answers what `answer` gives, at each call. */
export function scriptedExtractor(llm: Llm, answer: () => ExtractedCandidate[]): Llm {
  return {
    ...llm,
    extractor: {
      extract: () =>
        Promise.resolve({
          ok: true,
          value: answer(),
          model: 'scripted',
          usage: { promptTokens: 0, completionTokens: 0 },
        }),
    },
  };
}

/**
 * A memory candidate ("Prefers short answers") detected for the owner of `metadata`, reviewed as
 * `mode` says (`auto`: approved with it); its memory id and stream.
 */
export async function detectCandidate(
  deps: CommandContext,
  metadata: EventMetadata,
  mode: ReviewMode,
): Promise<{ memoryId: string; stream: string }> {
  const memoryId = randomUUID();
  const stream = userStream(metadata.workspaceId, metadata.userId, 'memory', memoryId);
  await handleCommand(
    deps,
    stream,
    memoryDecider,
    {
      type: 'DetectMemoryCandidate',
      data: {
        memoryId,
        kind: 'preference',
        content: 'Prefers short answers',
        confidence: 0.7,
        sourceMessageId: randomUUID(),
        sourceExcerpt: 'I prefer short answers',
        sessionId: 's1',
        generation: 0,
      },
      review: { mode },
    },
    { metadata },
  );
  return { memoryId, stream };
}
