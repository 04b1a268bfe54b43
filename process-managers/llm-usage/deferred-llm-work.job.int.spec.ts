import { randomUUID } from 'node:crypto';
import {
  fixedClock,
  memoryProfileDecider,
  messageDecider,
  policyDecider,
  userStream,
  workspaceStream,
  type MemoryPolicyChanges,
  type MessageRecorded,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { findLlmDeferrals, findLlmUsageSince } from '@engram/projections';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import {
  buildWorkerDeps,
  catchUpProjections,
  type WorkerDeps,
} from '../../test/support/worker-deps';
import { extractFromMessage } from '../extraction/extraction.reactor';
import { extendRollingSummary } from '../summary/summary.reactor';
import { runDeferredLlmWork } from './deferred-llm-work.job';

/**
 * The daily LLM budget against a real database: reactions past it record a deferral instead of
 * calling, the job runs them once the next day (in the policy's zone) has come. Time moves through
 * the injected clock only; the tests share one history and run in order.
 */
describe('the daily LLM budget and the deferred-work job', () => {
  let database: TestDatabase;
  let deps: WorkerDeps;
  // 10:00 in Paris on 1 June; the next day starts at 22:00 UTC.
  const clock = fixedClock('2026-06-01T08:00:00.000Z');
  const TONIGHT = '2026-06-01T22:00:00.000Z';

  beforeAll(async () => {
    database = await createTestDatabase();
    deps = await buildWorkerDeps(database, clock);
  });
  afterAll(async () => {
    await deps.close();
    await database.drop();
  });

  const metadata = (userId: string, causationId = randomUUID()) => ({
    workspaceId: 'w1',
    userId,
    causationId,
    correlationId: causationId,
    occurredAt: clock.now().toUTC().toISO()!,
  });

  async function setPolicy(changes: MemoryPolicyChanges): Promise<void> {
    await handleCommand(
      deps,
      workspaceStream('w1', 'policy', 'memory'),
      policyDecider,
      { type: 'ChangeMemoryPolicy', changes, changedBy: 'root' },
      { metadata: metadata('root') },
    );
    await catchUpProjections(deps);
  }

  /** A human message recorded and projected; returns it as the reactors receive it. */
  async function say(userId: string, text: string, sessionId = 's1'): Promise<DecodedMessage> {
    const messageId = randomUUID();
    const stream = userStream('w1', userId, 'message', messageId);
    await handleCommand(
      deps,
      stream,
      messageDecider,
      { type: 'RecordMessage', data: { messageId, sessionId, role: 'user', channel: 'web', text } },
      { metadata: metadata(userId, messageId) },
    );
    await catchUpProjections(deps);
    const [recorded] = await deps.store.readStream(stream);
    return deps.codec.decode<MessageRecorded>(recorded!);
  }
  type DecodedMessage = Awaited<ReturnType<typeof deps.codec.decode<MessageRecorded>>>;

  const ledger = async (userId: string) => {
    await catchUpProjections(deps);
    return (await findLlmUsageSince(deps.dataSource.manager, 'w1', userId, '2026-01-01')).map(
      (row) => [row.day, row.purpose, row.calls, row.deferred],
    );
  };
  const deferrals = async (userId: string) => {
    await catchUpProjections(deps);
    return (await findLlmDeferrals(deps.dataSource.manager, 'w1', userId)).map((row) => ({
      purpose: row.purpose,
      cause: row.cause,
      until: row.until.toISOString(),
    }));
  };
  const typesOf = async (userId: string, prefix: string) =>
    (await deps.store.readUserEvents('w1', userId))
      .filter((event) => event.streamId.startsWith(`w1/${userId}/${prefix}`))
      .map((event) => event.type);

  /** The job and the summary read at the head: the projections are caught up first, as a worker's are. */
  const runJob = async () => {
    await catchUpProjections(deps);
    return runDeferredLlmWork(deps);
  };
  const summarize = async (message: DecodedMessage) => {
    await catchUpProjections(deps);
    return extendRollingSummary(deps, message);
  };

  let held: DecodedMessage;

  it('without a budget, every extraction is called and recorded in the ledger, once per message', async () => {
    const first = await say('alice', 'Je suis CTO chez StartupCorp.');
    expect(await extractFromMessage(deps, first)).toBe('called');
    // Delivered again (a crash before the checkpoint): the ledger counts the work once.
    expect(await extractFromMessage(deps, first)).toBe('called');
    expect(await ledger('alice')).toEqual([['2026-06-01', 'extraction', 1, 0]]);
    const [call] = (await deps.store.readUserEvents('w1', 'alice')).filter(
      (event) => event.type === 'LlmCallRecorded',
    );
    expect(call).toMatchObject({
      streamId: 'w1/alice/llm-usage/2026-06-01',
      data: {
        purpose: 'extraction',
        cause: `message/${first.event.data.messageId}`,
        engine: 'offline-rules',
        promptTokens: 0,
        completionTokens: 0,
        outcome: 'ok',
        day: '2026-06-01',
      },
    });
  });

  it('past the budget, the extraction is deferred to the next local midnight, not called', async () => {
    await setPolicy({ llmCallsPerUserPerDay: 2 });
    expect(await extractFromMessage(deps, await say('alice', 'J’habite à Lyon.'))).toBe('called');
    held = await say('alice', 'Je préfère les réponses courtes.');
    expect(await extractFromMessage(deps, held)).toBe('deferred');
    expect(await typesOf('alice', 'memory/')).not.toContain('MemoryReinforced');
    expect(await ledger('alice')).toEqual([['2026-06-01', 'extraction', 2, 1]]);
    expect(await deferrals('alice')).toEqual([
      { purpose: 'extraction', cause: `message/${held.event.data.messageId}`, until: TONIGHT },
    ]);
    // Another user's budget is their own.
    expect(await extractFromMessage(deps, await say('bob', 'Je suis designer.'))).toBe('called');
  });

  it('the job leaves deferred work alone until its day has come', async () => {
    clock.set('2026-06-01T21:59:59.000Z');
    expect(await runJob()).toBe(0);
    expect(await deferrals('alice')).toHaveLength(1);
  });

  it('the next day, the job runs it, counts it on that day and takes it off the list; once', async () => {
    clock.set('2026-06-01T22:00:00.000Z');
    const before = (await typesOf('alice', 'memory/')).length;
    expect(await runJob()).toBe(1);
    expect((await typesOf('alice', 'memory/')).length).toBeGreaterThan(before);
    expect(await ledger('alice')).toEqual([
      ['2026-06-02', 'extraction', 1, 0],
      ['2026-06-01', 'extraction', 2, 1],
    ]);
    expect(await deferrals('alice')).toEqual([]);
    expect(await runJob()).toBe(0);
    expect(await typesOf('alice', 'llm-usage/')).toEqual([
      'LlmCallRecorded',
      'LlmCallRecorded',
      'LlmCallDeferred',
      'LlmCallRecorded',
      'LlmCallResumed',
    ]);
  });

  it('work that does not fit the new day either waits another day', async () => {
    await setPolicy({ llmCallsPerUserPerDay: 1 });
    // 2 June: alice already made one call today (the resumed one).
    const again = await say('alice', 'Je travaille le matin.');
    expect(await extractFromMessage(deps, again)).toBe('deferred');
    clock.set('2026-06-02T22:00:00.000Z');
    await extractFromMessage(deps, await say('alice', 'Je parle italien.'));
    expect(await runJob()).toBe(0);
    expect(await deferrals('alice')).toEqual([
      {
        purpose: 'extraction',
        cause: `message/${again.event.data.messageId}`,
        until: '2026-06-03T22:00:00.000Z',
      },
    ]);
    clock.set('2026-06-03T22:00:00.000Z');
    expect(await runJob()).toBe(1);
    expect(await deferrals('alice')).toEqual([]);
  });

  it('a message held back before a wipe is not analysed after it (the user wiped what it said)', async () => {
    const before = await say('carol', 'Je suis à Nantes.');
    await extractFromMessage(deps, before);
    const wiped = await say('carol', 'Je suis infirmière.');
    expect(await extractFromMessage(deps, wiped)).toBe('deferred');
    await handleCommand(
      deps,
      userStream('w1', 'carol', 'profile', 'memory'),
      memoryProfileDecider,
      { type: 'WipeMemories' },
      { metadata: metadata('carol') },
    );
    await catchUpProjections(deps);
    clock.set('2026-06-04T22:00:00.000Z');
    const calls = (await typesOf('carol', 'llm-usage/')).filter((t) => t === 'LlmCallRecorded');
    expect(await runJob()).toBe(1);
    expect((await typesOf('carol', 'llm-usage/')).filter((t) => t === 'LlmCallRecorded')).toEqual(
      calls,
    );
    expect(await deferrals('carol')).toEqual([]);
  });

  it('summaries wait the same way: one deferral per session and day, summarized the next day', async () => {
    await setPolicy({ llmCallsPerUserPerDay: 1, liveWindow: 1, summaryBatch: 1 });
    const first = await say('dave', 'Premier message.', 'long');
    expect(await extractFromMessage(deps, first)).toBe('called');
    expect(await summarize(first)).toBe('nothing');
    const second = await say('dave', 'Deuxième message.', 'long');
    expect(await summarize(second)).toBe('deferred');
    const third = await say('dave', 'Troisième message.', 'long');
    expect(await summarize(third)).toBe('deferred');
    expect(await deferrals('dave')).toEqual([
      expect.objectContaining({ purpose: 'summary', cause: 'session/long' }),
    ]);
    expect(await typesOf('dave', 'session/')).toEqual([]);
    clock.set('2026-06-05T22:00:00.000Z');
    expect(await runJob()).toBe(1);
    expect(await typesOf('dave', 'session/')).toEqual(['RollingSummaryExtended']);
    const [summary] = (await deps.store.readUserEvents('w1', 'dave')).filter(
      (event) => event.type === 'RollingSummaryExtended',
    );
    // The two messages that left the window by then, in one call.
    expect(summary?.data).toMatchObject({ sessionId: 'long', messageCount: 2 });
    expect(await deferrals('dave')).toEqual([]);
  });
});
