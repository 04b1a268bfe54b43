import { assertNever, type Decider } from '../decider';
import type { MemoryProfileEvent } from './memory-profile-events';

export type ChangeMemorySettings = Readonly<{
  type: 'ChangeMemorySettings';
  data: { enabled: boolean; pausedUntil: string | null };
}>;
export type WipeMemories = Readonly<{ type: 'WipeMemories' }>;
export type MemoryProfileCommand = ChangeMemorySettings | WipeMemories;

export type MemoryProfileState = Readonly<{
  enabled: boolean;
  pausedUntil: string | null;
  generation: number;
}>;

/** Per-user memory switch, pause and wipe. Memory is on by default. */
export const memoryProfileDecider: Decider<
  MemoryProfileCommand,
  MemoryProfileEvent,
  MemoryProfileState
> = {
  initialState: () => ({ enabled: true, pausedUntil: null, generation: 0 }),
  decide: (command, state) => {
    switch (command.type) {
      case 'ChangeMemorySettings':
        if (
          command.data.enabled === state.enabled &&
          command.data.pausedUntil === state.pausedUntil
        ) {
          return [];
        }
        return [{ type: 'MemorySettingsChanged', data: { ...command.data } }];
      case 'WipeMemories':
        return [{ type: 'MemoriesWiped', data: { generation: state.generation + 1 } }];
      default:
        return assertNever(command);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'MemorySettingsChanged':
        return { ...state, ...event.data };
      case 'MemoriesWiped':
        return { ...state, generation: event.data.generation };
      default:
        return assertNever(event);
    }
  },
};
