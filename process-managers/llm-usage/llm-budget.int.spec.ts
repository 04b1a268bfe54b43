import { randomUUID } from 'node:crypto';
import {
  DEFAULT_MEMORY_POLICY,
  fixedClock,
  llmCallCause,
  messageDecider,
  userStream,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { catchUpProjections, workerOnTestDatabase } from '../../test/support/worker-deps';
import { isBudgetSpent } from './llm-budget';
import { recordLlmCall } from './llm-ledger';

/**
 * The budget check against a real database: it counts the calls the user's reactions have just
 * recorded (it waits for the ledger's read model to hold the user's last entry of the day), and only
 * those: other users' appends since, not yet projected, do not hold it up (it used to wait for the
 * head of the store, a projection's lag for every reaction under load: BENCHMARKS.md round 20).
 */
describe('isBudgetSpent', () => {
  const clock = fixedClock('2026-06-01T08:00:00.000Z');
  const deps = workerOnTestDatabase(clock);
  const policy = { ...DEFAULT_MEMORY_POLICY, llmCallsPerUserPerDay: 2, timeZone: 'Europe/Paris' };
  const owner = (userId: string) => ({ workspaceId: 'w1', userId });

  const metadata = (userId: string) => {
    const id = randomUUID();
    return {
      workspaceId: 'w1',
      userId,
      causationId: id,
      correlationId: id,
      occurredAt: clock.now().toUTC().toISO()!,
    };
  };

  /** One extraction call in the user's ledger of the day (appended, not projected). */
  const recordCall = (userId: string) =>
    recordLlmCall(
      deps,
      {
        purpose: 'extraction',
        cause: llmCallCause.message(randomUUID()),
        metadata: metadata(userId),
        timeZone: policy.timeZone,
      },
      { ok: true, value: [], model: 'offline', usage: { promptTokens: 1, completionTokens: 1 } },
    );

  /** Another user's message: moves the head of the store, not the ledger of anyone else. */
  const elsewhere = async (userId: string) => {
    const messageId = randomUUID();
    await handleCommand(
      deps,
      userStream('w1', userId, 'message', messageId),
      messageDecider,
      {
        type: 'RecordMessage',
        data: { messageId, sessionId: 's1', role: 'user', channel: 'web', text: 'Bonjour.' },
      },
      { metadata: metadata(userId) },
    );
  };

  it('is not spent before any call of the day, and does not wait for anything', async () => {
    await elsewhere('bob'); // not projected: the head is ahead of every checkpoint
    expect(await isBudgetSpent(deps, owner('alice'), policy)).toBe(false);
  });

  it('counts the calls just recorded: it waits until the ledger read model holds them', async () => {
    await recordCall('alice');
    await recordCall('alice');
    const answer = isBudgetSpent(deps, owner('alice'), policy);
    // The read model is behind the two entries until the projections run.
    await catchUpProjections(deps);
    await expect(answer).resolves.toBe(true);
  });

  it('does not wait for other users: their appends since leave the answer immediate', async () => {
    await elsewhere('bob');
    await elsewhere('carol');
    // Waiting for the head, this threw RetryLaterError after 10 s: no worker projects bob's events.
    expect(await isBudgetSpent(deps, owner('alice'), policy)).toBe(true);
    expect(await isBudgetSpent(deps, owner('dave'), policy)).toBe(false);
  });

  it('never waits without a limit in the policy', async () => {
    await recordCall('erin');
    const unlimited = { ...policy, llmCallsPerUserPerDay: undefined };
    expect(await isBudgetSpent(deps, owner('erin'), unlimited)).toBe(false);
  });
});
