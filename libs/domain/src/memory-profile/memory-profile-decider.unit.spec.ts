import { deciderSpec } from '../../../../test/support/decider-spec';
import { isMemoryActive, memoryProfileDecider } from './memory-profile-decider';

const spec = deciderSpec(memoryProfileDecider);

describe('memory profile decider', () => {
  it('turns memory off, pauses it, and records nothing when nothing changes', () => {
    spec
      .given([])
      .when({ type: 'ChangeMemorySettings', data: { enabled: false, pausedUntil: null } })
      .then([{ type: 'MemorySettingsChanged', data: { enabled: false, pausedUntil: null } }]);
    spec
      .given([])
      .when({ type: 'ChangeMemorySettings', data: { enabled: true, pausedUntil: null } })
      .thenNothing();
  });

  it('starts a new generation at each wipe', () => {
    spec
      .given([])
      .when({ type: 'WipeMemories' })
      .then([{ type: 'MemoriesWiped', data: { generation: 1 } }]);
    spec
      .given([{ type: 'MemoriesWiped', data: { generation: 1 } }])
      .when({ type: 'WipeMemories' })
      .then([{ type: 'MemoriesWiped', data: { generation: 2 } }]);
  });

  it('says whether extraction runs at a given time', () => {
    expect(isMemoryActive({ enabled: true, pausedUntil: null }, '2026-06-08T10:00:00Z')).toBe(true);
    expect(isMemoryActive({ enabled: false, pausedUntil: null }, '2026-06-08T10:00:00Z')).toBe(
      false,
    );
    const paused = { enabled: true, pausedUntil: '2026-06-08T12:00:00.000Z' };
    expect(isMemoryActive(paused, '2026-06-08T11:59:00Z')).toBe(false);
    expect(isMemoryActive(paused, '2026-06-08T12:00:00Z')).toBe(true);
  });
});
