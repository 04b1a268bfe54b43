import { deterministicId, memoryDecider, userStream, type MemoryApproved } from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { findMemory } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { followUpMetadata } from '../follow-up-metadata';
import type { Reactor } from '../runner/reactor';
import { waitForProjections } from '../runner/wait-for-projections';

/**
 * Contradictions supersede (issue 20): when a memory whose detection named the one it replaces is
 * approved — at once by the policy, or later by a reviewer —, that older memory is superseded. On
 * approval rather than on detection, so that a candidate waiting for review (or rejected) leaves the
 * context as it was. The approved memory's row tells which one it replaces.
 */
export function supersessionReactor(deps: ProcessManagerDependencies): Reactor<MemoryApproved> {
  return {
    name: 'memory_supersession',
    handles: ['MemoryApproved'],
    react: async (event, signal) => {
      const { workspaceId, userId } = event.metadata;
      const { memoryId } = event.event.data;
      await waitForProjections(
        deps,
        ['memories'],
        { workspaceId, userId },
        event.globalPosition,
        signal,
      );
      const approved = await findMemory(deps.dataSource.manager, workspaceId, userId, memoryId);
      if (!approved?.supersedes) return;
      const older = approved.supersedes;
      await handleCommand(
        deps,
        userStream(workspaceId, userId, 'memory', older),
        memoryDecider,
        { type: 'SupersedeMemory', supersededBy: memoryId },
        {
          metadata: followUpMetadata(event, event.metadata.occurredAt),
          eventIds: () => [deterministicId('supersession', older, event.eventId)],
          states: deps.memoryStates,
        },
      );
    },
  };
}
