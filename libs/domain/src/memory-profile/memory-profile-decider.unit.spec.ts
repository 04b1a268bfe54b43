import { deciderSpec } from '../../../../test/support/decider-spec';
import { memoryProfileDecider } from './memory-profile-decider';
import { agentMemoryStatus, userMemoryStatus } from './memory-status';

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

  it('says one status for the settings screen and the agent context', () => {
    const at = '2026-06-08T11:00:00Z';
    const paused = { enabled: true, pausedUntil: '2026-06-08T12:00:00.000Z' };
    expect(userMemoryStatus(null, at)).toBe('enabled');
    expect(userMemoryStatus({ enabled: false, pausedUntil: null }, at)).toBe('disabled');
    expect(userMemoryStatus(paused, at)).toBe('paused');
    expect(agentMemoryStatus(false, null, at)).toBe('agent_disabled');
    expect(agentMemoryStatus(true, paused, at)).toBe('user_paused');
    expect(agentMemoryStatus(true, { enabled: false, pausedUntil: null }, at)).toBe(
      'user_disabled',
    );
    // A pause ends at its instant: extraction runs again from then on.
    expect(agentMemoryStatus(true, paused, '2026-06-08T12:00:00Z')).toBe('enabled');
  });
});
