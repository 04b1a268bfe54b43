import { DateTime } from 'luxon';
import {
  memoryDecider,
  policyDecider,
  userStream,
  workspaceStream,
  type MemoryApproved,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { createLlm, type Llm } from '@engram/llm';
import { findMemories } from '@engram/projections';
import { FakeOpenAi, promptData } from '../../test/support/fake-openai';
import { recordUserMessage } from '../../test/support/user-events';
import {
  catchUpProjections,
  workerOnTestDatabase,
  type WorkerDeps,
} from '../../test/support/worker-deps';
import { extractionReactor } from './extraction.reactor';
import { supersessionReactor } from './supersession.reactor';

// Issue 20, through the extraction and supersession reactors on a real store: a contradiction
// supersedes the older memory (once the newer one is approved), a restatement in other words
// reinforces the one memory. Offline (the slot and gist rules) and through the scripted
// OpenAI-compatible endpoint (the model's add / update / none answer).

const metadataOf = (workspaceId: string, userId: string, causationId: string) => ({
  workspaceId,
  userId,
  causationId,
  correlationId: causationId,
  occurredAt: DateTime.utc().toISO(),
});

/** Records a user message, then runs what the worker runs after it: extraction, then supersession. */
async function say(deps: WorkerDeps, llm: Llm, userId: string, text: string): Promise<void> {
  const message = await recordUserMessage(deps, { workspaceId: 'w1', userId }, text);
  await extractionReactor({ ...deps, llm }).react(message);
  await superseding(deps);
}

/** The supersession reactor fed every approval (it is idempotent), then the read models. */
async function superseding(deps: WorkerDeps): Promise<void> {
  await catchUpProjections(deps);
  const reactor = supersessionReactor(deps);
  for (const event of await deps.store.readAll({})) {
    if (event.type === 'MemoryApproved') {
      await reactor.react(await deps.codec.decode<MemoryApproved>(event));
    }
  }
  await catchUpProjections(deps);
}

async function memories(deps: WorkerDeps, userId: string) {
  const rows = await findMemories(deps.dataSource.manager, 'w1', userId);
  return rows.map((row) => ({
    id: row.memoryId,
    content: row.content,
    status: row.status,
    seen: row.seenCount,
    supersededBy: row.supersededBy,
  }));
}

async function supersededEvents(deps: WorkerDeps, userId: string) {
  return (await deps.store.readAll({}))
    .filter((e) => e.type === 'MemorySuperseded' && e.streamId.startsWith(`w1/${userId}/`))
    .map((e) => e.data as { memoryId: string; supersededBy: string });
}

describe('contradictions supersede, near-duplicates merge (offline rules)', () => {
  const deps = workerOnTestDatabase();

  it.each([
    ['fr-city', "J'habite à Lyon", "J'ai déménagé de Lyon à Paris"],
    ['en-employer', 'I work at Acme', "I quit Acme, I'm at Globex now"],
    ['en-diet', "I'm pescatarian", "I'm vegetarian now"],
    ['fr-diet', 'Je suis végétarien', 'Je suis végétalien maintenant'],
  ])('%s: "%s" then "%s": the newer memory supersedes the older', async (userId, first, second) => {
    await say(deps, deps.llm, userId, first);
    const [older] = await memories(deps, userId);
    expect(older).toMatchObject({ status: 'approved' });
    await say(deps, deps.llm, userId, second);
    const after = await memories(deps, userId);
    expect(after).toHaveLength(2);
    const newer = after[1]!;
    expect(after[0]).toMatchObject({ id: older!.id, status: 'superseded', supersededBy: newer.id });
    expect(newer).toMatchObject({ status: 'approved', supersededBy: null });
    expect(await supersededEvents(deps, userId)).toEqual([
      { memoryId: older!.id, supersededBy: newer.id },
    ]);
  });

  it.each([
    ['fr-hiking', "J'adore la randonnée", "J'aime beaucoup randonner"],
    ['en-hiking', 'I love hiking', 'I enjoy hiking'],
  ])('%s: "%s" then "%s": one memory, reinforced', async (userId, first, second) => {
    await say(deps, deps.llm, userId, first);
    await say(deps, deps.llm, userId, second);
    const after = await memories(deps, userId);
    expect(after).toEqual([expect.objectContaining({ status: 'approved', seen: 2 })]);
    const reinforced = (await deps.store.readAll({})).filter(
      (e) => e.type === 'MemoryReinforced' && e.streamId.startsWith(`w1/${userId}/`),
    );
    expect(reinforced).toHaveLength(1);
  });
});

describe('a superseding candidate under manual review', () => {
  const deps = workerOnTestDatabase();

  it('supersedes only once approved: the older memory stays current meanwhile', async () => {
    await handleCommand(
      deps,
      workspaceStream('w1', 'policy', 'memory'),
      policyDecider,
      { type: 'ChangeMemoryPolicy', changes: { reviewMode: 'admin' }, changedBy: 'root' },
      { metadata: metadataOf('w1', 'root', 'policy') },
    );
    const admin = { kind: 'person', userId: 'root', role: 'admin' } as const;
    const approve = async (memoryId: string) => {
      await handleCommand(
        deps,
        userStream('w1', 'u1', 'memory', memoryId),
        memoryDecider,
        { type: 'ApproveMemory', by: admin },
        { metadata: metadataOf('w1', 'u1', `approve-${memoryId}`) },
      );
      await superseding(deps);
    };
    await say(deps, deps.llm, 'u1', 'I live in Lyon');
    const [lyon] = await memories(deps, 'u1');
    await approve(lyon!.id);
    await say(deps, deps.llm, 'u1', 'I moved to Paris');
    const pending = await memories(deps, 'u1');
    expect(pending.map((m) => m.status)).toEqual(['approved', 'pending']);
    expect(await supersededEvents(deps, 'u1')).toEqual([]);

    await approve(pending[1]!.id);
    expect((await memories(deps, 'u1')).map((m) => m.status)).toEqual(['superseded', 'approved']);
  });
});

describe('contradictions supersede, near-duplicates merge (scripted OpenAI endpoint)', () => {
  const deps = workerOnTestDatabase();
  const server = new FakeOpenAi();
  let llm: Llm;
  /** What the scripted model answers, by message: a content, and an action on the memory shown first. */
  const script = new Map<string, { content: string; action: 'add' | 'update' | 'none' }>();

  beforeAll(async () => {
    const baseUrl = await server.start();
    llm = createLlm({ apiKey: 'test', baseUrl, model: 'gpt-test', timeoutMs: 5000, maxRetries: 0 });
    server.respond('extraction', (request) => {
      const data = promptData<{
        message_to_analyse: { text: string };
        existing_memories: { id: string }[];
      }>(request);
      const line = script.get(data.message_to_analyse.text);
      if (line === undefined) return { content: '{"candidates":[]}' };
      const memory = line.action === 'add' ? null : (data.existing_memories[0]?.id ?? null);
      const candidate = { kind: 'fact', content: line.content, confidence: 0.9, dueAt: null };
      return {
        content: JSON.stringify({ candidates: [{ ...candidate, action: line.action, memory }] }),
      };
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each([
    [
      'oa-fr-city',
      'Je vis à Lyon',
      "L'utilisateur habite à Lyon.",
      'Je me suis installé à Paris',
      "L'utilisateur habite à Paris.",
    ],
    [
      'oa-en-employer',
      'I work at Acme',
      'The user works at Acme.',
      "I quit Acme, I'm at Globex now",
      'The user works at Globex.',
    ],
  ])(
    '%s: the model’s update supersedes the memory it names',
    async (userId, first, firstContent, second, secondContent) => {
      script.set(first, { content: firstContent, action: 'add' });
      script.set(second, { content: secondContent, action: 'update' });
      await say(deps, llm, userId, first);
      await say(deps, llm, userId, second);
      const after = await memories(deps, userId);
      expect(after.map((m) => [m.content, m.status])).toEqual([
        [firstContent, 'superseded'],
        [secondContent, 'approved'],
      ]);
      expect(after[0]!.supersededBy).toBe(after[1]!.id);
    },
  );

  it.each([
    [
      'oa-fr-hiking',
      "J'adore la randonnée",
      "L'utilisateur adore la randonnée.",
      "J'aime beaucoup randonner",
      "L'utilisateur aime beaucoup randonner.",
    ],
    [
      'oa-en-hiking',
      'I love hiking',
      'The user loves hiking.',
      'I enjoy hiking',
      'The user enjoys hiking.',
    ],
  ])(
    '%s: the model’s none reinforces the memory it names',
    async (userId, first, firstContent, second, secondContent) => {
      script.set(first, { content: firstContent, action: 'add' });
      script.set(second, { content: secondContent, action: 'none' });
      await say(deps, llm, userId, first);
      await say(deps, llm, userId, second);
      expect(await memories(deps, userId)).toEqual([
        expect.objectContaining({ content: firstContent, status: 'approved', seen: 2 }),
      ]);
    },
  );
});
