import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { messageDecider, userStream, type MessageRecorded } from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import type { ExtractedCandidate, Llm } from '@engram/llm';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import {
  buildWorkerDeps,
  catchUpProjections,
  type WorkerDeps,
} from '../../../../test/support/worker-deps';
import { extractionReactor } from './extraction.reactor';

const candidate = (content: string): ExtractedCandidate => ({
  kind: 'fact',
  content,
  confidence: 0.9,
});

/** Delivery is at least once: a reaction may run again after a crash, with other candidates. */
describe('the extraction reactor run twice for one message', () => {
  let database: TestDatabase;
  let deps: WorkerDeps;
  const answers: ExtractedCandidate[][] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    deps = await buildWorkerDeps(database, { now: () => DateTime.utc() });
  });
  afterAll(async () => {
    await deps.close();
    await database.drop();
  });

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
