import type { DecidedBy } from '@engram/domain';
import { In, type FindOptionsWhere } from 'typeorm';
import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type GivenEvent,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import {
  memoriesWiped,
  memoryApproved,
  memoryDeleted,
  memoryDetected,
  memoryEvicted,
  memoryReinforced,
  memoryRejected,
  memorySuperseded,
} from '../../test/support/events';
import { MemoryRecord } from './memories.entity';
import { memoriesProjection } from './memories.projection';
import { countActiveMemories, findMemories, findMemory, findNextToEvict } from './memories.query';

const ADMIN: DecidedBy = { kind: 'person', userId: 'root', role: 'admin' };

const at = (position: number) => new Date(defaultOccurredAt(position));

describe('memories projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(memoriesProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given MemoryCandidateDetected, then a pending memory seen once', async () => {
    const rows = await spec.given([
      memoryDetected('m1', {
        kind: 'commitment',
        confidence: 0.8,
        dueAt: '2026-07-01T09:00:00.000Z',
      }),
    ]);
    expect(rows).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        memory_id: 'm1',
        kind: 'commitment',
        content: "L'utilisateur préfère m1.",
        normalized_content: 'l utilisateur prefere m1',
        confidence: 0.8,
        status: 'pending',
        source_message_id: 'msg-m1',
        source_excerpt: 'Message about m1',
        session_id: 's1',
        due_at: new Date('2026-07-01T09:00:00.000Z'),
        generation: 0,
        created_at: at(1),
        decided_at: null,
        decided_by: null,
        evictable: false,
        rejection_reason: null,
        last_seen_at: at(1),
        last_used_at: null,
        seen_count: 1,
        supersedes: null,
        superseded_by: null,
        position: '1',
      },
    ]);
  });

  it('given MemoryReinforced, then seen once more, last seen then, and the higher confidence', async () => {
    await spec.given([memoryDetected('m1', { confidence: 0.7 })]);
    expect(await spec.when([memoryReinforced('m1', 0.5)])).toEqual([
      expect.objectContaining({
        seen_count: 2,
        last_seen_at: at(2),
        confidence: 0.7,
        position: '2',
      }),
    ]);
    expect(await spec.when([memoryReinforced('m1', 0.9)])).toEqual([
      expect.objectContaining({
        seen_count: 3,
        last_seen_at: at(3),
        confidence: 0.9,
        position: '3',
      }),
    ]);
  });

  it('given MemoryApproved, then approved with when and by whom', async () => {
    expect(await spec.given([memoryDetected('m1'), memoryApproved('m1', ADMIN)])).toEqual([
      expect.objectContaining({
        status: 'approved',
        decided_at: at(2),
        decided_by: ADMIN,
        position: '2',
        seen_count: 1,
        content: "L'utilisateur préfère m1.",
      }),
    ]);
  });

  it('given MemoryRejected, then rejected with the reason (or none)', async () => {
    const rows = await spec.given([
      memoryDetected('m1'),
      memoryDetected('m2'),
      memoryRejected('m1', { reason: 'not true' }),
      memoryRejected('m2'),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        memory_id: 'm1',
        status: 'rejected',
        decided_at: at(3),
        decided_by: ADMIN,
        rejection_reason: 'not true',
      }),
      expect.objectContaining({
        memory_id: 'm2',
        status: 'rejected',
        decided_at: at(4),
        rejection_reason: null,
      }),
    ]);
  });

  it('given MemoryEvicted, then evicted at that time, content kept', async () => {
    expect(
      await spec.given([memoryDetected('m1'), memoryApproved('m1'), memoryEvicted('m1')]),
    ).toEqual([
      expect.objectContaining({
        status: 'evicted',
        decided_at: at(3),
        decided_by: null,
        content: "L'utilisateur préfère m1.",
        position: '3',
      }),
    ]);
  });

  it('given MemoryExpired, then expired (a rejection with reason expired), by the expiry', async () => {
    const expired: GivenEvent = {
      type: 'MemoryExpired',
      data: { memoryId: 'm1', by: { kind: 'expiry' }, reason: 'expired' },
    };
    expect(await spec.given([memoryDetected('m1'), expired])).toEqual([
      expect.objectContaining({
        status: 'expired',
        decided_at: at(2),
        decided_by: { kind: 'expiry' },
        rejection_reason: 'expired',
        position: '2',
      }),
    ]);
  });

  it('given MemoriesUsed, then last used at that time for the memories it names that exist', async () => {
    const used: GivenEvent = { type: 'MemoriesUsed', data: { memoryIds: ['m1', 'unknown'] } };
    const rows = await spec.given([memoryDetected('m1'), memoryDetected('m2'), used]);
    expect(rows.map((row) => [row.memory_id, row.last_used_at])).toEqual([
      ['m1', at(3)],
      ['m2', null],
    ]);
  });

  it('given MemoryDeleted, then deleted and its text forgotten', async () => {
    expect(
      await spec.given([memoryDetected('m1'), memoryApproved('m1'), memoryDeleted('m1')]),
    ).toEqual([
      expect.objectContaining({
        status: 'deleted',
        decided_at: at(3),
        decided_by: { kind: 'person', userId: 'alice', role: 'user' },
        content: null,
        normalized_content: null,
        position: '3',
      }),
    ]);
  });

  it('a memory detected again after its deletion starts over as pending', async () => {
    const rows = await spec.given([
      memoryDetected('m1', { confidence: 0.9 }),
      memoryReinforced('m1', 0.9),
      memoryApproved('m1'),
      memoryDeleted('m1'),
      memoryDetected('m1', {
        kind: 'preference',
        content: 'Again!',
        confidence: 0.6,
        sourceMessageId: 'x',
      }),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        memory_id: 'm1',
        kind: 'preference',
        content: 'Again!',
        normalized_content: 'again',
        confidence: 0.6,
        status: 'pending',
        source_message_id: 'x',
        created_at: at(5),
        decided_at: null,
        decided_by: null,
        last_seen_at: at(5),
        seen_count: 1,
        position: '5',
      }),
    ]);
  });

  it('given MemorySuperseded, then superseded by the newer one, content kept, out of the approved ones (issue 20)', async () => {
    const rows = await spec.given([
      memoryDetected('lyon', { content: "L'utilisateur habite à Lyon." }),
      memoryApproved('lyon'),
      memoryDetected('paris', { content: "L'utilisateur habite à Paris.", supersedes: 'lyon' }),
      memoryApproved('paris'),
      memorySuperseded('lyon', 'paris'),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        memory_id: 'lyon',
        content: "L'utilisateur habite à Lyon.",
        status: 'superseded',
        superseded_by: 'paris',
        supersedes: null,
        decided_at: at(5),
        decided_by: null,
        evictable: false,
      }),
      expect.objectContaining({
        memory_id: 'paris',
        status: 'approved',
        supersedes: 'lyon',
        superseded_by: null,
      }),
    ]);
    // What the context reads (approved) and what counts against the cap: the newer one alone.
    const approved = await spec.asUser(ALICE, (m) =>
      findMemories(m, 'w1', 'alice', { statuses: ['approved'] }),
    );
    expect(approved.map((row) => row.memoryId)).toEqual(['paris']);
    expect(await spec.asUser(ALICE, (m) => countActiveMemories(m, 'w1', 'alice'))).toBe(1);
  });

  it('a superseded memory said again later starts over as pending, without its old link', async () => {
    const rows = await spec.given([
      memoryDetected('lyon'),
      memoryApproved('lyon'),
      memorySuperseded('lyon', 'paris'),
      memoryDetected('lyon', { sourceMessageId: 'back' }),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ memory_id: 'lyon', status: 'pending', superseded_by: null }),
    ]);
  });

  it('events about an unknown memory change nothing', async () => {
    expect(
      await spec.given([
        memoryReinforced('m1', 0.9),
        memoryApproved('m1'),
        memoryRejected('m1', { reason: 'no' }),
        memoryEvicted('m1'),
        memoryDeleted('m1'),
      ]),
    ).toEqual([]);
  });

  it('given MemoriesWiped, then every memory of that user disappears, and only theirs', async () => {
    await spec.given([
      memoryDetected('a1'),
      memoryDetected('a2'),
      memoryApproved('a2'),
      memoryDetected('b1', {}, { owner: BOB }),
      memoryDetected('c1', {}, { owner: { workspaceId: 'w2', userId: 'alice' } }),
    ]);
    const rows = await spec.when([memoriesWiped(1)]);
    expect(rows.map((row) => [row.workspace_id, row.user_id, row.memory_id])).toEqual([
      ['w1', 'bob', 'b1'],
      ['w2', 'alice', 'c1'],
    ]);
  });

  it('within one batch: a wipe drops the memories before it, not the ones detected after it', async () => {
    const rows = await spec.given([
      memoryDetected('a1'),
      memoriesWiped(1),
      memoryApproved('a1'),
      memoryDetected('a2', { generation: 1 }),
      memoryApproved('a2'),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ memory_id: 'a2', generation: 1, status: 'approved' }),
    ]);
  });

  it('gives the same rows whether the events come in one batch or several', async () => {
    const events = spec.events([
      memoryDetected('a1'),
      memoryDetected('a2', { kind: 'preference' }),
      memoryReinforced('a1', 0.95),
      memoryDetected('b1', {}, { owner: BOB }),
      memoryApproved('a1'),
      memoryRejected('a2', { reason: 'nope' }),
      memoryApproved('b1', ADMIN, { owner: BOB }),
      memoryDetected('a3'),
      memoryApproved('a3'),
      memoryEvicted('a3'),
      memoryDeleted('a1'),
      memoryDetected('a1', { content: 'back' }),
      memoryReinforced('a1', 0.2),
      memoriesWiped(1, { owner: BOB }),
      memoryDetected('b2', { generation: 1 }, { owner: BOB }),
      memoryDetected('a4'),
      memoryDeleted('a4'),
    ]);
    const once = await spec.given(events);
    expect(once.map((row) => [row.user_id, row.memory_id, row.status].join(':'))).toEqual([
      'alice:a1:pending',
      'alice:a2:rejected',
      'alice:a3:evicted',
      'alice:a4:deleted',
      'bob:b2:pending',
    ]);
    for (const batchSize of [1, 2, 3, 4, 7]) {
      expect(await spec.given(events, { batchSize })).toEqual(once);
    }
  });

  it('evictable: approved facts the policy or their user approved, never an admin (isEvictableByCap)', async () => {
    const user: DecidedBy = { kind: 'person', userId: 'alice', role: 'user' };
    const rows = await spec.given([
      memoryDetected('by-policy'),
      memoryApproved('by-policy'),
      memoryDetected('by-user'),
      memoryApproved('by-user', user),
      memoryDetected('by-admin'),
      memoryApproved('by-admin', ADMIN),
      memoryDetected('preference', { kind: 'preference' }),
      memoryApproved('preference'),
      memoryDetected('pending'),
      memoryDetected('deleted'),
      memoryApproved('deleted'),
      memoryDeleted('deleted'),
    ]);
    expect(Object.fromEntries(rows.map((row) => [row.memory_id, row.evictable]))).toEqual({
      'by-policy': true,
      'by-user': true,
      'by-admin': false,
      preference: false,
      pending: false,
      deleted: false,
    });
  });

  describe('queries', () => {
    beforeAll(async () => {
      await spec.given([
        memoryDetected('f-old', { kind: 'fact' }, { occurredAt: '2026-06-01T10:00:00.000Z' }),
        memoryDetected('p1', { kind: 'preference' }, { occurredAt: '2026-06-01T11:00:00.000Z' }),
        memoryDetected('f-new', { kind: 'fact' }, { occurredAt: '2026-06-01T12:00:00.000Z' }),
        memoryDetected('f-pending', { kind: 'fact' }, { occurredAt: '2026-06-01T09:00:00.000Z' }),
        memoryDetected('f-gone', { kind: 'fact' }, { occurredAt: '2026-06-01T08:00:00.000Z' }),
        memoryDetected(
          'b1',
          { kind: 'fact' },
          { owner: BOB, occurredAt: '2026-06-01T07:00:00.000Z' },
        ),
        memoryApproved('f-old', undefined, { occurredAt: '2026-06-01T13:00:00.000Z' }),
        memoryApproved('p1', undefined, { occurredAt: '2026-06-01T13:00:00.000Z' }),
        memoryApproved('f-new', undefined, { occurredAt: '2026-06-01T13:00:00.000Z' }),
        memoryApproved('f-gone', undefined, { occurredAt: '2026-06-01T13:00:00.000Z' }),
        memoryDeleted('f-gone', { occurredAt: '2026-06-01T14:00:00.000Z' }),
        memoryApproved('b1', ADMIN, { owner: BOB, occurredAt: '2026-06-01T13:00:00.000Z' }),
      ]);
    });

    const ids = (rows: { memoryId: string }[]) => rows.map((row) => row.memoryId);

    it("findMemories: the user's memories by creation time, narrowed by statuses and kind", async () => {
      const all = await spec.asUser(ALICE, (m) => findMemories(m, 'w1', 'alice', {}));
      expect(ids(all)).toEqual(['f-gone', 'f-pending', 'f-old', 'p1', 'f-new']);
      expect(all[0]).toMatchObject({
        status: 'deleted',
        content: null,
        decidedBy: { kind: 'person', userId: 'alice', role: 'user' },
      });
      expect(all[2]).toMatchObject({
        status: 'approved',
        decidedBy: { kind: 'policy' },
        createdAt: new Date('2026-06-01T10:00:00.000Z'),
        confidence: 0.7,
        seenCount: 1,
        dueAt: null,
      });
      const approvedFacts = await spec.asUser(ALICE, (m) =>
        findMemories(m, 'w1', 'alice', { statuses: ['approved'], kind: 'fact' }),
      );
      expect(ids(approvedFacts)).toEqual(['f-old', 'f-new']);
      const active = await spec.asUser(ALICE, (m) =>
        findMemories(m, 'w1', 'alice', { statuses: ['pending', 'approved'] }),
      );
      expect(ids(active)).toEqual(['f-pending', 'f-old', 'p1', 'f-new']);
      expect(
        await spec.asUser(ALICE, (m) => findMemories(m, 'w1', 'alice', { statuses: [] })),
      ).toEqual([]);
    });

    it("findMemories under RLS: a user never sees another user's memories, whatever they ask", async () => {
      expect(await spec.asUser(BOB, (m) => findMemories(m, 'w1', 'alice', {}))).toEqual([]);
      expect(ids(await spec.asUser(BOB, (m) => findMemories(m, 'w1', 'bob', {})))).toEqual(['b1']);
      // The projector role (the workers) sees everyone's.
      expect(ids(await findMemories(spec.projector.manager, 'w1', 'bob', {}))).toEqual(['b1']);
    });

    it("findMemories as a worker reads (projector, no transaction: a prepared statement) answers what TypeORM's find answers", async () => {
      const manager = spec.projector.manager;
      const cases = [
        [{}, { workspaceId: 'w1', userId: 'alice' }],
        [
          { statuses: ['approved'], kind: 'fact' },
          { workspaceId: 'w1', userId: 'alice', status: In(['approved']), kind: 'fact' },
        ],
        [
          { statuses: ['pending', 'approved'] },
          { workspaceId: 'w1', userId: 'alice', status: In(['pending', 'approved']) },
        ],
      ] as const;
      for (const [filter, where] of cases) {
        const typeorm = await manager.find(MemoryRecord, {
          where: where as FindOptionsWhere<MemoryRecord>,
          order: { createdAt: 'ASC', memoryId: 'ASC' },
        });
        expect(typeorm.length).toBeGreaterThan(0);
        // Twice: the second run binds the statement the first prepared.
        expect(await findMemories(manager, 'w1', 'alice', filter)).toEqual(typeorm);
        expect(await findMemories(manager, 'w1', 'alice', filter)).toEqual(typeorm);
      }
    });

    it('findMemory: one memory of the caller, or null', async () => {
      expect(await spec.asUser(ALICE, (m) => findMemory(m, 'w1', 'alice', 'p1'))).toMatchObject({
        memoryId: 'p1',
        kind: 'preference',
        status: 'approved',
      });
      expect(await spec.asUser(ALICE, (m) => findMemory(m, 'w1', 'alice', 'nope'))).toBeNull();
      expect(await spec.asUser(BOB, (m) => findMemory(m, 'w1', 'alice', 'p1'))).toBeNull();
    });

    it('countActiveMemories: pending and approved', async () => {
      expect(await spec.asUser(ALICE, (m) => countActiveMemories(m, 'w1', 'alice'))).toBe(4);
      expect(await spec.asUser(BOB, (m) => countActiveMemories(m, 'w1', 'bob'))).toBe(1);
    });

    it('findNextToEvict: the evictable fact with the oldest last use or sighting', async () => {
      const lru = () => spec.asUser(ALICE, (m) => findNextToEvict(m, 'w1', 'alice'));
      expect((await lru())?.memoryId).toBe('f-old');
      // Seen again later: f-new becomes the least recently used.
      await spec.when([memoryReinforced('f-old', 0.5, { occurredAt: '2026-06-02T00:00:00.000Z' })]);
      expect((await lru())?.memoryId).toBe('f-new');
      // Used later still (last_used_at is set by the usage feature): f-old again.
      await spec.projector.query(
        `UPDATE memories SET last_used_at = '2026-06-03T00:00:00Z' WHERE memory_id = 'f-new'`,
      );
      expect((await lru())?.memoryId).toBe('f-old');
      // Ties go to the smallest id.
      await spec.projector.query(
        `UPDATE memories SET last_used_at = '2026-06-05T00:00:00Z' WHERE memory_id IN ('f-old', 'f-new')`,
      );
      expect((await lru())?.memoryId).toBe('f-new');
      expect(await spec.asUser(BOB, (m) => findNextToEvict(m, 'w1', 'alice'))).toBeNull();
      // Bob's only fact was approved by an admin: never evicted (seed 002), however old.
      expect(await spec.asUser(BOB, (m) => findNextToEvict(m, 'w1', 'bob'))).toBeNull();
    });
  });
});
