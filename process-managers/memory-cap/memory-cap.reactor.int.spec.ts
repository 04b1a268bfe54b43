import { randomUUID } from 'node:crypto';
import {
  fixedClock,
  memoryDecider,
  policyDecider,
  userStream,
  workspaceStream,
  type DecidedBy,
  type EventMetadata,
  type MemoryCandidateDetected,
  type MemoryCommand,
  type MemoryKind,
} from '@engram/domain';
import { handleCommand, type DecodedEvent } from '@engram/event-store';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import {
  buildWorkerDeps,
  catchUpProjections,
  type WorkerDeps,
} from '../../test/support/worker-deps';
import { memoryCapReactor } from './memory-cap.reactor';

const WS = 'w1';
const USER = 'alice';
const ADMIN: DecidedBy = { kind: 'person', userId: 'root', role: 'admin' };

/**
 * Seed 000's cap against seed 002's "approved memories never expire unless deleted by hand": on a real
 * database, past `userMemoryCap` the reactor evicts the least recently used fact the policy or the
 * user approved, and never one an admin approved, however old.
 */
describe('memory cap reactor (real database)', () => {
  let database: TestDatabase;
  let deps: WorkerDeps;
  let minute = 0;

  const metadata = (): EventMetadata => ({
    workspaceId: WS,
    userId: USER,
    causationId: randomUUID(),
    correlationId: randomUUID(),
    // One minute apart: the first detected is the least recently seen.
    occurredAt: new Date(Date.UTC(2026, 5, 1, 10, (minute += 1))).toISOString(),
  });

  const memory = (memoryId: string, command: MemoryCommand) =>
    handleCommand(deps, userStream(WS, USER, 'memory', memoryId), memoryDecider, command, {
      metadata: metadata(),
    });

  /** Detects a memory, approved at once (`auto`) or left pending for a review (`admin`). */
  async function detect(
    memoryId: string,
    kind: MemoryKind,
    mode: 'auto' | 'admin',
  ): Promise<DecodedEvent<MemoryCandidateDetected>> {
    const content = `${memoryId} (${kind})`;
    await memory(memoryId, {
      type: 'DetectMemoryCandidate',
      data: {
        memoryId,
        kind,
        content,
        confidence: 0.8,
        sourceMessageId: randomUUID(),
        sourceExcerpt: content,
        sessionId: 's1',
        generation: 0,
      },
      review: { mode },
    });
    const [recorded] = await deps.store.readStream(userStream(WS, USER, 'memory', memoryId));
    return deps.codec.decode<MemoryCandidateDetected>(recorded!);
  }

  /** Projections caught up, then the cap reacting to the detection, as the worker would. */
  async function react(detected: DecodedEvent<MemoryCandidateDetected>): Promise<void> {
    await catchUpProjections(deps);
    await memoryCapReactor(deps).react(detected);
    await catchUpProjections(deps);
  }

  async function statuses(): Promise<Record<string, string>> {
    const rows = await deps.dataSource.query<{ memory_id: string; status: string }[]>(
      'SELECT memory_id, status FROM memories WHERE workspace_id = $1 AND user_id = $2',
      [WS, USER],
    );
    return Object.fromEntries(rows.map((row) => [row.memory_id, row.status]));
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    deps = await buildWorkerDeps(database, fixedClock('2026-06-01T12:00:00.000Z'));
    await handleCommand(
      deps,
      workspaceStream(WS, 'policy', 'memory'),
      policyDecider,
      {
        type: 'ChangeMemoryPolicy',
        changes: { reviewMode: 'admin', userMemoryCap: 2 },
        changedBy: 'root',
      },
      { metadata: { ...metadata(), userId: 'root' } },
    );
  });

  afterAll(async () => {
    await deps?.close();
    await database?.drop();
  });

  it('past the cap, evicts the fact approved automatically, not the older one an admin approved', async () => {
    await detect('by-admin', 'fact', 'admin');
    await memory('by-admin', { type: 'ApproveMemory', by: ADMIN });
    await detect('by-policy', 'fact', 'auto');
    const third = await detect('pending', 'preference', 'admin');

    await react(third);

    expect(await statuses()).toEqual({
      'by-admin': 'approved',
      'by-policy': 'evicted',
      pending: 'pending',
    });
  });

  it('with only what an admin approved left to evict, the cap is exceeded rather than broken', async () => {
    const fourth = await detect('another', 'context', 'admin');

    await react(fourth);

    expect(await statuses()).toEqual({
      'by-admin': 'approved',
      'by-policy': 'evicted',
      pending: 'pending',
      another: 'pending',
    });
  });

  it("the decider refuses an eviction of the admin's fact, whoever asks", async () => {
    await expect(memory('by-admin', { type: 'EvictMemory' })).rejects.toThrow(
      'A memory an admin approved is never evicted',
    );
  });

  it('one reactor reads the head of the store once, then waits for the candidate and its own last eviction', async () => {
    const reactor = memoryCapReactor(deps);
    const head = jest.spyOn(deps.store, 'headPosition');
    const reads: number[] = [];
    for (const memoryId of ['auto-1', 'auto-2']) {
      const detected = await detect(memoryId, 'fact', 'auto');
      await catchUpProjections(deps);
      const before = head.mock.calls.length;
      await reactor.react(detected);
      reads.push(head.mock.calls.length - before);
      await catchUpProjections(deps);
    }
    expect(reads).toEqual([1, 0]);
    head.mockRestore();
    // Over the cap of 2 each time (the admin's fact and two pending ones are active already), and
    // each new fact the only one the cap may evict: each is evicted, once.
    expect(await statuses()).toMatchObject({ 'auto-1': 'evicted', 'auto-2': 'evicted' });
  });
});
