import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  memoryDecider,
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
import { StreamStates, handleCommand } from '@engram/event-store';
import type { ExtractedCandidate } from '@engram/llm';
import { recordUserMessage, scriptedExtractor } from '../../test/support/user-events';
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
    const scripted = scriptedExtractor(deps.llm, () => answers.shift() ?? []);
    const message = await recordUserMessage(deps, { workspaceId: 'w1', userId: 'u1' }, 'Bonjour');
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

/**
 * The candidates and the ledger entry are written side by side: when one write fails, the other
 * still lands, the reaction fails only once both are done, and the retry writes what is missing.
 */
describe('the extraction reactor when its ledger entry fails', () => {
  const deps = workerOnTestDatabase();

  it('keeps the candidate, fails, and writes only the ledger entry when run again', async () => {
    const message = await recordUserMessage(deps, { workspaceId: 'w3', userId: 'u3' }, 'Bonjour');
    let ledgerFailures = 1;
    const store = new Proxy(deps.store, {
      get(target, property, receiver) {
        if (property === 'appendToStream') {
          return (streamId: string, ...rest: unknown[]) =>
            streamId.includes('/llm-usage/') && ledgerFailures-- > 0
              ? Promise.reject(new Error('the ledger is unavailable'))
              : (target.appendToStream as (...args: unknown[]) => unknown)(streamId, ...rest);
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const scripted = scriptedExtractor(deps.llm, () => [candidate('Habite à Lyon.')]);
    const reactor = extractionReactor({ ...deps, store, llm: scripted });
    const written = async () =>
      (await deps.store.readUserEvents('w3', 'u3'))
        .map((event) => event.type)
        .filter((type) => type !== 'MessageRecorded');

    await expect(reactor.react(message)).rejects.toThrow('the ledger is unavailable');
    expect(await written()).toEqual(['MemoryCandidateDetected', 'MemoryApproved']);
    await reactor.react(message);
    expect((await written()).sort()).toEqual([
      'LlmCallRecorded',
      'MemoryApproved',
      'MemoryCandidateDetected',
    ]);
  });
});

/**
 * People repeat themselves: a candidate whose memory the extractor was shown (pending or approved)
 * is decided on its stream at once, without first trying to open a stream that exists.
 */
describe('the extraction reactor and a memory said again word for word', () => {
  const deps = workerOnTestDatabase();

  it('reinforces it with one append, none refused', async () => {
    const scripted = scriptedExtractor(deps.llm, () => [candidate('Aime le thé vert.')]);
    const reactor = extractionReactor({ ...deps, llm: scripted });
    const say = async (text: string) => {
      await reactor.react(await recordUserMessage(deps, { workspaceId: 'w4', userId: 'u4' }, text));
      await catchUpProjections(deps);
    };
    await say("J'aime le thé vert.");
    const appends = jest.spyOn(deps.store, 'appendToStream');
    await say("J'aime le thé vert, vraiment.");
    const memoryAppends = appends.mock.calls.filter(([stream]) => stream.includes('/memory/'));
    expect(memoryAppends.map(([, , options]) => options.expectedRevision)).not.toContain(
      'no_stream',
    );
    expect(memoryAppends).toHaveLength(1);
    const memoryEvents = (await deps.store.readUserEvents('w4', 'u4'))
      .filter((event) => event.streamId.includes('/memory/'))
      .map((event) => event.type);
    expect(memoryEvents).toEqual(['MemoryCandidateDetected', 'MemoryApproved', 'MemoryReinforced']);
  });
});

/**
 * The worker keeps the memory states it decided on (`StreamStates`): a memory said again is decided
 * on its known state and the events since, and what another process wrote meanwhile is folded in.
 */
describe('the extraction reactor with the known memory states of its worker', () => {
  const deps = workerOnTestDatabase();

  it('reads only the events since its last decision, and sees a deletion made elsewhere', async () => {
    const scripted = scriptedExtractor(deps.llm, () => [candidate('Aime le café.')]);
    const reactor = extractionReactor({
      ...deps,
      llm: scripted,
      memoryStates: new StreamStates(10),
    });
    const owner = { workspaceId: 'w5', userId: 'u5' };
    const say = async (text: string) => {
      await reactor.react(await recordUserMessage(deps, owner, text));
      await catchUpProjections(deps);
    };
    const memoryEvents = async () =>
      (await deps.store.readUserEvents('w5', 'u5'))
        .filter((event) => event.streamId.includes('/memory/'))
        .map((event) => event.type);
    await say("J'aime le café.");
    const reads = jest.spyOn(deps.store, 'readStream');
    await say("J'aime le café, vraiment.");
    await say("J'aime le café, toujours.");
    const memoryReads = reads.mock.calls.filter(([stream]) => stream.includes('/memory/'));
    // Each from the last event it decided on: the approval (revision 1), then its reinforcement.
    expect(memoryReads.map(([, options]) => options?.fromRevision)).toEqual([1n, 2n]);
    expect(await memoryEvents()).toEqual([
      'MemoryCandidateDetected',
      'MemoryApproved',
      'MemoryReinforced',
      'MemoryReinforced',
    ]);

    // The user deletes it through the API (a process that keeps no states), then says it again.
    const [detected] = (await deps.store.readUserEvents('w5', 'u5')).filter(
      (event) => event.type === 'MemoryCandidateDetected',
    );
    await handleCommand(
      deps,
      detected!.streamId,
      memoryDecider,
      {
        type: 'DeleteMemory',
        by: { kind: 'person', userId: 'u5', role: 'user' },
        reason: 'deleted',
      },
      {
        metadata: {
          ...owner,
          causationId: 'delete',
          correlationId: 'delete',
          occurredAt: DateTime.utc().toISO(),
        },
      },
    );
    await catchUpProjections(deps);
    await say("J'aime le café.");
    expect((await memoryEvents()).slice(4)).toEqual([
      'MemoryDeleted',
      'MemoryCandidateDetected',
      'MemoryApproved',
    ]);
  });
});
