import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  messageDecider,
  policyDecider,
  userStream,
  workspaceStream,
  type MessageRecorded,
} from '@engram/domain';
import {
  PROJECTIONS,
  catchUpAllPartitions,
  workspacePoliciesProjection,
} from '@engram/projections';
import { handleCommand } from '@engram/event-store';
import type { ExtractedCandidate, Llm } from '@engram/llm';
import { catchUpProjections, workerOnTestDatabase } from '../../test/support/worker-deps';
import { extractionReactor } from './extraction.reactor';

const candidate = (content: string): ExtractedCandidate => ({
  kind: 'fact',
  content,
  confidence: 0.9,
});

/** Delivery is at least once: a reaction may run again after a crash, with other candidates. */
describe('the extraction reactor run twice for one message', () => {
  const deps = workerOnTestDatabase();
  const answers: ExtractedCandidate[][] = [];

  it('records the new candidates of the second run and never names an event of the first', async () => {
    const scripted: Llm = {
      ...deps.llm,
      extractor: {
        extract: () => {
          const value = answers.shift() ?? [];
          return Promise.resolve({
            ok: true,
            value,
            model: 'scripted',
            usage: { promptTokens: 0, completionTokens: 0 },
          });
        },
      },
    };
    const messageId = randomUUID();
    const stream = userStream('w1', 'u1', 'message', messageId);
    await handleCommand(
      deps,
      stream,
      messageDecider,
      {
        type: 'RecordMessage',
        data: { messageId, sessionId: 's1', role: 'user', channel: 'web', text: 'Bonjour' },
      },
      {
        metadata: {
          workspaceId: 'w1',
          userId: 'u1',
          causationId: messageId,
          correlationId: messageId,
          occurredAt: DateTime.utc().toISO(),
        },
      },
    );
    await catchUpProjections(deps);
    const [recorded] = await deps.store.readStream(stream);
    const message = await deps.codec.decode<MessageRecorded>(recorded!);
    const reactor = extractionReactor({ ...deps, llm: scripted });

    answers.push([candidate('A est vrai.'), candidate('B est vrai.')]);
    await reactor.react(message);
    // The crash came before the checkpoint: the same message again, and another answer.
    answers.push([candidate('C est vrai.'), candidate('A est vrai.')]);
    await reactor.react(message);

    const detected = (await deps.store.readAll({}))
      .filter((event) => event.type === 'MemoryCandidateDetected')
      .map((event) => (event.data as { content?: string }).content);
    expect(detected.sort()).toEqual(['A est vrai.', 'B est vrai.', 'C est vrai.']);
  });
});

/** Seed 002: a review mode changed just before a message decides that message's candidates. */
describe('the extraction reactor and the policy in force', () => {
  const deps = workerOnTestDatabase();

  it('waits for the policy projection to reach the message before deciding the review', async () => {
    const at = DateTime.utc().toISO();
    const metadata = { workspaceId: 'w2', causationId: 'c', correlationId: 'c', occurredAt: at };
    await handleCommand(
      deps,
      workspaceStream('w2', 'policy', 'memory'),
      policyDecider,
      { type: 'ChangeMemoryPolicy', changes: { reviewMode: 'admin' }, changedBy: 'root' },
      { metadata: { ...metadata, userId: 'root' } },
    );
    const messageId = randomUUID();
    const stream = userStream('w2', 'u2', 'message', messageId);
    await handleCommand(
      deps,
      stream,
      messageDecider,
      {
        type: 'RecordMessage',
        data: {
          messageId,
          sessionId: 's1',
          role: 'user',
          channel: 'web',
          text: 'Je préfère les réponses courtes.',
        },
      },
      { metadata: { ...metadata, userId: 'u2', causationId: messageId } },
    );
    // Every read model is there but the policy, which a busy partition applies a moment later.
    for (const projection of PROJECTIONS) {
      if (projection !== workspacePoliciesProjection) await catchUpAllPartitions(deps, projection);
    }
    const [recorded] = await deps.store.readStream(stream);
    const reaction = extractionReactor(deps).react(
      await deps.codec.decode<MessageRecorded>(recorded!),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await catchUpAllPartitions(deps, workspacePoliciesProjection);
    await reaction;

    const memoryEvents = (await deps.store.readAll({}))
      .filter((event) => event.streamId.startsWith('w2/u2/memory/'))
      .map((event) => event.type);
    expect(memoryEvents).toEqual(['MemoryCandidateDetected']);
  });
});
