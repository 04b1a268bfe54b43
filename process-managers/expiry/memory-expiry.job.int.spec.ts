import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DateTime } from 'luxon';
import {
  fixedClock,
  memoryDecider,
  memoryIdFor,
  policyDecider,
  userStream,
  workspaceStream,
  type Clock,
  type EventMetadata,
  type MemoryCommand,
} from '@engram/domain';
import { handleCommand, type EventStore } from '@engram/event-store';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { expirePendingMemories } from './memory-expiry.job';
import {
  buildWorkerDeps,
  catchUpProjections,
  type WorkerDeps,
} from '../../test/support/worker-deps';

/**
 * The pending-candidate expiry job against a real database: the event store (app role), the read
 * models (projector role) and every projection caught up by hand between runs. The tests share one
 * history and run in order; time only moves forward, through the injected clock.
 */

const T0 = DateTime.fromISO('2026-06-01T10:00:00.000Z', { zone: 'utc' });
const at = (days: number, hours = 0) => T0.plus({ days, hours }).toUTC().toISO()!;

type Owner = Readonly<{ workspaceId: string; userId: string }>;
const ALICE: Owner = { workspaceId: 'w1', userId: 'alice' };
const BOB: Owner = { workspaceId: 'w1', userId: 'bob' };
const DAVE: Owner = { workspaceId: 'w1', userId: 'dave' };
/** w2's policy keeps pending candidates 2 days (w1 has none: the default 7). */
const CAROL: Owner = { workspaceId: 'w2', userId: 'carol' };
const ERIN: Owner = { workspaceId: 'w2', userId: 'erin' };
const ADMIN = { kind: 'person', userId: 'root', role: 'admin' } as const;

type Deps = WorkerDeps;

describe('memory expiry job (real database)', () => {
  let database: TestDatabase;
  let owner: Client;
  const clock = fixedClock(at(0));
  /** The clock of the worker started again after the restart. */
  const restartedClock = fixedClock(at(11));
  let deps: Deps;
  /** Memory ids by a short name used in the test. */
  const ids = new Map<string, { owner: Owner; memoryId: string }>();

  /** A fresh set of dependencies, as a worker process builds them at start. */
  function buildDeps(withClock: Clock, store?: EventStore): Promise<Deps> {
    return buildWorkerDeps(database, withClock, store);
  }

  function metadata(who: Owner, occurredAt: string): EventMetadata {
    return {
      workspaceId: who.workspaceId,
      userId: who.userId,
      causationId: randomUUID(),
      correlationId: randomUUID(),
      occurredAt,
    };
  }

  function memoryCommand(name: string, command: MemoryCommand, occurredAt: string) {
    const memory = ids.get(name)!;
    return handleCommand(
      deps,
      userStream(memory.owner.workspaceId, memory.owner.userId, 'memory', memory.memoryId),
      memoryDecider,
      command,
      { metadata: metadata(memory.owner, occurredAt) },
    );
  }

  /** A candidate detected at `occurredAt`, left pending (admin review, no threshold). */
  async function detect(name: string, who: Owner, occurredAt: string, messageId = randomUUID()) {
    const content = `L'utilisateur ${who.userId} aime ${name}.`;
    const digest = await deps.memoryIdDigests.digestFor(who.workspaceId, who.userId);
    const memoryId = memoryIdFor(digest, who.workspaceId, who.userId, 0, content);
    ids.set(name, { owner: who, memoryId });
    const result = await memoryCommand(
      name,
      {
        type: 'DetectMemoryCandidate',
        data: {
          memoryId,
          kind: 'preference',
          content,
          confidence: 0.6,
          sourceMessageId: messageId,
          sourceExcerpt: content,
          sessionId: 's1',
          generation: 0,
        },
        review: { mode: 'admin' },
      },
      occurredAt,
    );
    expect(result.events.map((event) => event.type)).toEqual(['MemoryCandidateDetected']);
  }

  function catchUp(using: Deps = deps): Promise<void> {
    return catchUpProjections(using);
  }

  /** MemoryExpired events stored per memory name (counted in the events table itself). */
  async function expiredEvents(): Promise<Record<string, number>> {
    const result = await owner.query<{ memory_id: string; count: string }>(
      `SELECT data->>'memoryId' AS memory_id, count(*) AS count FROM events
        WHERE type = 'MemoryExpired' GROUP BY 1`,
    );
    const byId = new Map(result.rows.map((row) => [row.memory_id, Number(row.count)]));
    return Object.fromEntries(
      [...ids].flatMap(([name, { memoryId }]) =>
        byId.has(memoryId) ? [[name, byId.get(memoryId)!]] : [],
      ),
    );
  }

  async function row(name: string) {
    const { owner: who, memoryId } = ids.get(name)!;
    const rows = await deps.dataSource.query<Record<string, unknown>[]>(
      `SELECT status, rejection_reason, decided_by, decided_at, created_at FROM memories
        WHERE workspace_id = $1 AND user_id = $2 AND memory_id = $3`,
      [who.workspaceId, who.userId, memoryId],
    );
    return rows[0];
  }

  const expiredAt = (iso: string) => ({
    status: 'expired',
    rejection_reason: 'expired',
    decided_by: { kind: 'expiry' },
    decided_at: new Date(iso),
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
    deps = await buildDeps(clock);

    const policy = await handleCommand(
      deps,
      workspaceStream('w2', 'policy', 'memory'),
      policyDecider,
      {
        type: 'ChangeMemoryPolicy',
        changes: { reviewMode: 'admin', pendingTtlDays: 2 },
        changedBy: 'root',
      },
      { metadata: metadata({ workspaceId: 'w2', userId: 'root' }, at(-1)) },
    );
    expect(policy.events).toHaveLength(1);

    await detect('a1', ALICE, at(0));
    await detect('a2', ALICE, at(3)); // due on day 10: expires "while the worker is down"
    await detect('b1', BOB, at(0, 1));
    await detect('approved', ALICE, at(0));
    await memoryCommand('approved', { type: 'ApproveMemory', by: ADMIN }, at(0, 2));
    await detect('rejected', BOB, at(0));
    await memoryCommand('rejected', { type: 'RejectMemory', by: ADMIN }, at(0, 2));
    await detect('c1', CAROL, at(0)); // 2-day TTL: due on day 2
    await detect('c2', CAROL, at(5)); // 2-day TTL: due on day 7
    await catchUp();
  });

  afterAll(async () => {
    await deps?.close();
    await owner?.end();
    await database?.drop();
  });

  it('expires nothing before any deadline', async () => {
    clock.set(at(1));
    expect(await expirePendingMemories(deps)).toBe(0);
    expect(await expiredEvents()).toEqual({});
  });

  it("at +6 days: nothing in the default workspace (TTL 7), the 2-day workspace's due candidates do", async () => {
    clock.set(at(6));
    expect(await deps.policies.memoryPolicy('w2')).toMatchObject({ pendingTtlDays: 2 });
    expect(await deps.policies.memoryPolicy('w1')).toMatchObject({ pendingTtlDays: 7 });

    expect(await expirePendingMemories(deps)).toBe(1);
    expect(await expiredEvents()).toEqual({ c1: 1 });

    // Run again before the read model has seen it: the stream says expired, nothing is appended.
    expect(await row('c1')).toMatchObject({ status: 'pending' });
    expect(await expirePendingMemories(deps)).toBe(0);
    expect(await expiredEvents()).toEqual({ c1: 1 });

    await catchUp();
    expect(await row('c1')).toMatchObject(expiredAt(at(6)));
    for (const name of ['a1', 'a2', 'b1', 'c2'])
      expect(await row(name)).toMatchObject({ status: 'pending' });
  });

  it('at +8 days: the remaining due candidates expire, once each; decided ones are untouched', async () => {
    clock.set(at(8));
    expect(await expirePendingMemories(deps)).toBe(3);
    expect(await expiredEvents()).toEqual({ c1: 1, a1: 1, b1: 1, c2: 1 });

    await catchUp();
    for (const name of ['a1', 'b1', 'c2']) expect(await row(name)).toMatchObject(expiredAt(at(8)));
    expect(await row('approved')).toMatchObject({ status: 'approved', rejection_reason: null });
    expect(await row('rejected')).toMatchObject({ status: 'rejected', rejection_reason: null });
    expect(await row('a2')).toMatchObject({ status: 'pending', decided_at: null });

    expect(await expirePendingMemories(deps)).toBe(0);
    expect(await expiredEvents()).toEqual({ c1: 1, a1: 1, b1: 1, c2: 1 });
  });

  it('does not expire a candidate decided in the store but still pending in a lagging read model', async () => {
    await detect('late', DAVE, at(0));
    await catchUp();
    await memoryCommand('late', { type: 'ApproveMemory', by: ADMIN }, at(8));
    expect(await row('late')).toMatchObject({ status: 'pending' });

    expect(await expirePendingMemories(deps)).toBe(0);
    expect(await expiredEvents()).not.toHaveProperty('late');
    await catchUp();
    expect(await row('late')).toMatchObject({ status: 'approved' });
  });

  it('across a restart: a deadline passed while the worker was down expires at the first run', async () => {
    await deps.close();
    // Down from day 8 to day 11; a2's deadline (day 10) passes meanwhile.
    deps = await buildDeps(restartedClock);

    expect(await expirePendingMemories(deps)).toBe(1);
    expect(await expiredEvents()).toEqual({ c1: 1, a1: 1, b1: 1, c2: 1, a2: 1 });
    await catchUp();
    expect(await row('a2')).toMatchObject(expiredAt(at(11)));
    expect(await expirePendingMemories(deps)).toBe(0);
  });

  it('an expired memory detected again is a new pending candidate, which expires again later', async () => {
    const { userId } = ALICE;
    const memoryId = ids.get('a1')!.memoryId;
    const result = await memoryCommand(
      'a1',
      {
        type: 'DetectMemoryCandidate',
        data: {
          memoryId,
          kind: 'preference',
          content: `L'utilisateur ${userId} aime a1.`,
          confidence: 0.8,
          sourceMessageId: randomUUID(),
          sourceExcerpt: 'again',
          sessionId: 's2',
          generation: 0,
        },
        review: { mode: 'admin' },
      },
      at(10),
    );
    expect(result.events.map((event) => event.type)).toEqual(['MemoryCandidateDetected']);
    await catchUp();
    expect(await row('a1')).toMatchObject({
      status: 'pending',
      created_at: new Date(at(10)),
      decided_at: null,
      rejection_reason: null,
    });

    expect(await expirePendingMemories(deps)).toBe(0); // day 11 < day 17
    restartedClock.set(at(17));
    expect(await expirePendingMemories(deps)).toBe(1);
    // A second pending period, a second MemoryExpired (the event id names the period).
    expect((await expiredEvents()).a1).toBe(2);
    await catchUp();
    expect(await row('a1')).toMatchObject(expiredAt(at(17)));
  });

  describe('two workers at once', () => {
    let workerA: Deps;
    let workerB: Deps;
    const workerClock = fixedClock(at(30));

    beforeAll(async () => {
      workerA = await buildDeps(workerClock);
      workerB = await buildDeps(workerClock);
    });

    afterAll(async () => {
      await workerA?.close();
      await workerB?.close();
    });

    it('both running on the same due candidates record one MemoryExpired each', async () => {
      for (const name of ['d1', 'd2', 'd3']) await detect(name, DAVE, at(20));
      await detect('e1', ERIN, at(25));
      await catchUp();

      const [a, b] = await Promise.all([
        expirePendingMemories(workerA),
        expirePendingMemories(workerB),
      ]);
      const counts = await expiredEvents();
      expect([counts.d1, counts.d2, counts.d3, counts.e1]).toEqual([1, 1, 1, 1]);
      // Each worker saw the 4; between them they expired them all (a worker whose append was
      // recognised as a repeat counts it too: the sum may exceed 4, never fall short).
      expect(a + b).toBeGreaterThanOrEqual(4);

      // Again before the read models caught up, then after: nothing more.
      expect(await expirePendingMemories(workerA)).toBe(0);
      await catchUp(workerB);
      for (const name of ['d1', 'd2', 'd3'])
        expect(await row(name)).toMatchObject(expiredAt(at(30)));
      expect(await row('e1')).toMatchObject(expiredAt(at(30)));
      expect(await expirePendingMemories(workerA)).toBe(0);
      expect(await expirePendingMemories(workerB)).toBe(0);
      expect(await expiredEvents()).toMatchObject({ d1: 1, d2: 1, d3: 1, e1: 1 });
    });

    it('expires at most `limit` candidates per run, oldest first', async () => {
      await detect('g2', DAVE, at(23));
      await detect('g1', DAVE, at(22));
      await catchUp();
      expect(await expirePendingMemories(workerA, 1)).toBe(1);
      expect(await expiredEvents()).toHaveProperty('g1', 1);
      expect(await expiredEvents()).not.toHaveProperty('g2');
      await catchUp();
      expect(await expirePendingMemories(workerA, 1)).toBe(1);
      expect(await expiredEvents()).toMatchObject({ g1: 1, g2: 1 });
      await catchUp();
      expect(await expirePendingMemories(workerA, 1)).toBe(0);
    });

    it('the slower worker, who decided on the pending state, appends the same event id: a no-op', async () => {
      await detect('f1', DAVE, at(21));
      await catchUp();

      // Worker B reads the stream (pending), then waits until worker A has expired the memory.
      let releaseB!: () => void;
      const aDone = new Promise<void>((resolve) => {
        releaseB = resolve;
      });
      const realStore = workerB.store;
      const lagging = new Proxy(realStore, {
        get(target, property, receiver) {
          if (property === 'readStream') {
            return async (...args: Parameters<EventStore['readStream']>) => {
              const events = await target.readStream(...args);
              await aDone;
              return events;
            };
          }
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const slowB = { ...workerB, store: lagging };

      const bRun = expirePendingMemories(slowB);
      const aCount = await expirePendingMemories(workerA);
      releaseB();
      const bCount = await bRun;

      expect(aCount).toBe(1);
      expect(bCount).toBe(1); // B decided MemoryExpired; the store recognised the id and wrote nothing
      expect((await expiredEvents()).f1).toBe(1);
      const stream = await realStore.readStream(
        userStream(DAVE.workspaceId, DAVE.userId, 'memory', ids.get('f1')!.memoryId),
      );
      expect(stream.map((event) => event.type)).toEqual([
        'MemoryCandidateDetected',
        'MemoryExpired',
      ]);
      await catchUp();
      expect(await row('f1')).toMatchObject(expiredAt(at(30)));
    });
  });
});
