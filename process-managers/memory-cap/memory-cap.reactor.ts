import {
  deterministicId,
  memoryDecider,
  userStream,
  type MemoryCandidateDetected,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { countActiveMemories, findNextToEvict } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { followUpMetadata } from '../follow-up-metadata';
import type { Reactor } from '../runner/reactor';
import { readThrough, rememberRecorded, type RecordedThrough } from '../runner/recorded-through';
import { waitForProjections } from '../runner/wait-for-projections';

/**
 * Keeps each user at most `userMemoryCap` active memories: past it, the least recently used of the
 * memories the cap may evict (`isEvictableByCap`: facts approved by the policy or by their user, never
 * what an admin approved nor another kind) is evicted; with none left to evict, the cap is exceeded,
 * by design. It reads the memories once they have reached the candidate and the last eviction it
 * made (`readThrough`), so that eviction is counted before it decides another.
 */
export function memoryCapReactor(
  deps: ProcessManagerDependencies,
): Reactor<MemoryCandidateDetected> {
  const recorded: RecordedThrough = {};
  return {
    name: 'memory_cap',
    handles: ['MemoryCandidateDetected'],
    react: async (event, signal) => {
      const { workspaceId, userId } = event.metadata;
      const through = await readThrough(deps, recorded, event.globalPosition);
      await waitForProjections(
        deps,
        ['memories', 'workspace_policies'],
        { workspaceId, userId },
        through,
        signal,
      );
      const policy = await deps.policies.memoryPolicy(workspaceId, through);
      const manager = deps.dataSource.manager;
      if ((await countActiveMemories(manager, workspaceId, userId)) <= policy.userMemoryCap) return;
      const victim = await findNextToEvict(manager, workspaceId, userId);
      if (!victim) return;
      const eviction = await handleCommand(
        deps,
        userStream(workspaceId, userId, 'memory', victim.memoryId),
        memoryDecider,
        { type: 'EvictMemory' },
        {
          metadata: followUpMetadata(event, event.metadata.occurredAt),
          eventIds: () => [deterministicId('eviction', victim.memoryId, event.eventId)],
        },
      );
      rememberRecorded(recorded, eviction.position);
    },
  };
}
