import {
  ALICE,
  BOB,
  defaultOccurredAt,
  projectionSpec,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { memoriesWiped, memorySettingsChanged } from '../../test/support/events';
import { memorySettingsProjection } from './memory-settings.projection';
import { findMemorySettings } from './memory-settings.query';

const at = (position: number) => new Date(defaultOccurredAt(position));

describe('memory_settings projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(memorySettingsProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given MemorySettingsChanged, then the switch and the pause, generation 0', async () => {
    expect(await spec.given([memorySettingsChanged(true, '2026-06-10T00:00:00.000Z')])).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        enabled: true,
        paused_until: new Date('2026-06-10T00:00:00.000Z'),
        generation: 0,
        updated_at: at(1),
      },
    ]);
    expect(await spec.when([memorySettingsChanged(false, null)])).toEqual([
      expect.objectContaining({
        enabled: false,
        paused_until: null,
        generation: 0,
        updated_at: at(2),
      }),
    ]);
  });

  it('given MemoriesWiped, then the new generation, the rest unchanged (defaults when new)', async () => {
    expect(await spec.given([memoriesWiped(1)])).toEqual([
      {
        workspace_id: 'w1',
        user_id: 'alice',
        enabled: true,
        paused_until: null,
        generation: 1,
        updated_at: at(1),
      },
    ]);
    expect(await spec.when([memorySettingsChanged(false, null), memoriesWiped(2)])).toEqual([
      expect.objectContaining({ enabled: false, generation: 2, updated_at: at(3) }),
    ]);
    expect(await spec.when([memorySettingsChanged(true, null)])).toEqual([
      expect.objectContaining({ enabled: true, generation: 2 }),
    ]);
  });

  it('gives the same rows whether the events come in one batch or several', async () => {
    const events = spec.events([
      memorySettingsChanged(false, null),
      memorySettingsChanged(true, '2026-07-01T00:00:00.000Z', { owner: BOB }),
      memoriesWiped(1),
      memorySettingsChanged(true, '2026-06-20T00:00:00.000Z'),
      memoriesWiped(1, { owner: BOB }),
      memoriesWiped(2),
    ]);
    const once = await spec.given(events);
    expect(once).toHaveLength(2);
    for (const batchSize of [1, 2, 4])
      expect(await spec.given(events, { batchSize })).toEqual(once);
  });

  it("findMemorySettings: the caller's settings, null when never changed or someone else's", async () => {
    await spec.given([memorySettingsChanged(false, null), memoriesWiped(3)]);
    expect(
      await spec.asUser(ALICE, (manager) => findMemorySettings(manager, 'w1', 'alice')),
    ).toMatchObject({ enabled: false, pausedUntil: null, generation: 3, updatedAt: at(2) });
    expect(
      await spec.asUser(BOB, (manager) => findMemorySettings(manager, 'w1', 'bob')),
    ).toBeNull();
    expect(
      await spec.asUser(BOB, (manager) => findMemorySettings(manager, 'w1', 'alice')),
    ).toBeNull();
  });
});
