import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import {
  identityCardRegenerated,
  memoriesWiped,
  memoryApproved,
  memoryDeleted,
  memoryEvicted,
  memorySuperseded,
} from '../../test/support/events';
import { identityCardsProjection } from './identity-cards.projection';
import { findIdentityCard, findIdentityCardsToRegenerate } from './identity-cards.query';

const at = (position: number) => new Date(defaultOccurredAt(position));

describe('identity_cards projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(identityCardsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given MemoryApproved, then an empty card marked dirty at that position', async () => {
    expect(await spec.given([memoryApproved('m1')])).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        markdown: '',
        memory_count: 0,
        based_on_position: '-1',
        model: null,
        generated_at: null,
        dirty_position: '1',
        dirty_at: at(1),
        wiped_position: null,
      },
    ]);
  });

  it('given MemoryDeleted, MemoryEvicted and MemorySuperseded, then the dirty position moves', async () => {
    await spec.given([memoryApproved('m1')]);
    expect(await spec.when([memoryDeleted('m1')])).toEqual([
      expect.objectContaining({ dirty_position: '2', dirty_at: at(2) }),
    ]);
    expect(await spec.when([memoryEvicted('m2')])).toEqual([
      expect.objectContaining({ dirty_position: '3', dirty_at: at(3) }),
    ]);
    expect(await spec.when([memorySuperseded('m3', 'm4')])).toEqual([
      expect.objectContaining({ dirty_position: '4', dirty_at: at(4) }),
    ]);
  });

  it('given IdentityCardRegenerated, then the card, the position it is based on, and when', async () => {
    const rows = await spec.given([
      memoryApproved('m1'),
      memoryApproved('m2'),
      identityCardRegenerated('2'),
    ]);
    expect(rows).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        markdown: '# card @2',
        memory_count: 2,
        based_on_position: '2',
        model: 'writer-1',
        generated_at: at(3),
        dirty_position: '2',
        dirty_at: at(2),
        wiped_position: null,
      },
    ]);
    // A card with no dirty event before it (row created by the card itself).
    expect(await spec.given([identityCardRegenerated('0', { markdown: '# hello' })])).toEqual([
      expect.objectContaining({
        markdown: '# hello',
        based_on_position: '0',
        dirty_position: null,
      }),
    ]);
  });

  it('given MemoriesWiped, then the card is emptied at once and marked dirty', async () => {
    await spec.given([
      memoryApproved('m1'),
      identityCardRegenerated('1'),
      memoryApproved('b1', undefined, { owner: BOB }),
    ]);
    const rows = await spec.when([memoriesWiped(1)]);
    expect(rows).toEqual([
      expect.objectContaining({
        user_id: 'alice',
        markdown: '',
        memory_count: 0,
        based_on_position: '1',
        model: 'writer-1',
        dirty_position: '4',
        dirty_at: at(4),
        wiped_position: '4',
      }),
      expect.objectContaining({ user_id: 'bob', dirty_position: '3' }),
    ]);
  });

  it('ignores a card generated from memories older than the last wipe (it raced the wipe)', async () => {
    await spec.given([memoryApproved('m1'), memoriesWiped(1)]);
    const rows = await spec.when([identityCardRegenerated('1', { markdown: '# wiped memories' })]);
    expect(rows).toEqual([
      expect.objectContaining({ markdown: '', based_on_position: '-1', dirty_position: '2' }),
    ]);
    expect(
      await spec.when([identityCardRegenerated('2', { markdown: '# after the wipe' })]),
    ).toEqual([expect.objectContaining({ markdown: '# after the wipe', based_on_position: '2' })]);
  });

  it('gives the same rows whether the events come in one batch or several', async () => {
    const events = spec.events([
      memoryApproved('m1'),
      memoryApproved('b1', undefined, { owner: BOB }),
      identityCardRegenerated('1'),
      memoryDeleted('m1'),
      memoryEvicted('b1', { owner: BOB }),
      identityCardRegenerated('5', { markdown: '# bob' }, { owner: BOB }),
      memoriesWiped(1),
      identityCardRegenerated('4', { markdown: '# too old' }),
      memoryApproved('m2'),
      identityCardRegenerated('9'),
    ]);
    const once = await spec.given(events);
    expect(once).toEqual([
      expect.objectContaining({ user_id: 'alice', markdown: '# card @9', dirty_position: '9' }),
      expect.objectContaining({ user_id: 'bob', markdown: '# bob', dirty_position: '5' }),
    ]);
    for (const batchSize of [1, 2, 3, 4])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  it("findIdentityCard: the caller's card, null when none or someone else's", async () => {
    await spec.given([memoryApproved('m1'), identityCardRegenerated('1')]);
    expect(await spec.asUser(ALICE, (m) => findIdentityCard(m, 'w1', 'alice'))).toMatchObject({
      markdown: '# card @1',
      memoryCount: 2,
      basedOnPosition: '1',
      model: 'writer-1',
      generatedAt: at(2),
      dirtyPosition: '1',
    });
    expect(await spec.asUser(BOB, (m) => findIdentityCard(m, 'w1', 'bob'))).toBeNull();
    expect(await spec.asUser(BOB, (m) => findIdentityCard(m, 'w1', 'alice'))).toBeNull();
  });

  it('findIdentityCardsToRegenerate: stale cards not generated too recently, stalest first', async () => {
    const carol: Owner = { workspaceId: 'w2', userId: 'carol' };
    const dave: Owner = { workspaceId: 'w2', userId: 'dave' };
    await spec.given([
      memoryApproved('c1', undefined, { owner: carol, occurredAt: '2026-06-01T10:00:00.000Z' }), // 1
      identityCardRegenerated(
        '1',
        { markdown: '# carol' },
        { owner: carol, occurredAt: '2026-06-01T10:05:00.000Z' },
      ), // 2: up to date
      memoryApproved('b1', undefined, { owner: BOB, occurredAt: '2026-06-01T11:00:00.000Z' }), // 3: never generated
      memoryApproved('a1', undefined, { occurredAt: '2026-06-01T09:00:00.000Z' }), // 4
      identityCardRegenerated(
        '4',
        { markdown: '# alice' },
        { occurredAt: '2026-06-01T09:30:00.000Z' },
      ), // 5
      memoryApproved('a2', undefined, { occurredAt: '2026-06-01T12:00:00.000Z' }), // 6: alice stale again
      memoryApproved('d1', undefined, { owner: dave, occurredAt: '2026-06-01T08:00:00.000Z' }), // 7
      identityCardRegenerated(
        '7',
        { markdown: '# dave' },
        { owner: dave, occurredAt: '2026-06-01T13:00:00.000Z' },
      ), // 8
      memoryDeleted('d1', { owner: dave, occurredAt: '2026-06-01T13:30:00.000Z' }), // 9: stale, generated recently
    ]);
    const manager = spec.projector.manager;
    expect(
      await findIdentityCardsToRegenerate(manager, new Date('2026-06-01T12:30:00.000Z'), 10),
    ).toEqual([
      { workspaceId: 'w1', userId: 'bob', dirtyPosition: '3' },
      { workspaceId: 'w1', userId: 'alice', dirtyPosition: '6' },
    ]);
    expect(
      await findIdentityCardsToRegenerate(manager, new Date('2026-06-01T13:00:00.000Z'), 10),
    ).toEqual([
      { workspaceId: 'w1', userId: 'bob', dirtyPosition: '3' },
      { workspaceId: 'w1', userId: 'alice', dirtyPosition: '6' },
      { workspaceId: 'w2', userId: 'dave', dirtyPosition: '9' },
    ]);
    expect(
      await findIdentityCardsToRegenerate(manager, new Date('2026-06-02T00:00:00.000Z'), 1),
    ).toEqual([{ workspaceId: 'w1', userId: 'bob', dirtyPosition: '3' }]);
  });
});
