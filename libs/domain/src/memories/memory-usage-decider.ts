import { assertNever, type Decider } from '../decider';
import type { MemoriesUsed } from './memory-events';

export type RecordMemoryUsage = Readonly<{
  type: 'RecordMemoryUsage';
  memoryIds: readonly string[];
}>;

/**
 * The memories put in agent contexts, as one fact per batch. The usage stream is a log: nothing in
 * it refuses a batch, so the state stays empty and the stream is appended to without being read.
 */
export const memoryUsageDecider: Decider<RecordMemoryUsage, MemoriesUsed, null> = {
  initialState: () => null,
  decide: (command) =>
    command.memoryIds.length === 0
      ? []
      : [{ type: 'MemoriesUsed', data: { memoryIds: [...new Set(command.memoryIds)] } }],
  evolve: (state, event) => {
    switch (event.type) {
      case 'MemoriesUsed':
        return state;
      default:
        return assertNever(event.type);
    }
  },
};
