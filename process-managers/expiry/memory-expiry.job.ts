import { randomUUID } from 'node:crypto';
import { DEFAULT_MEMORY_POLICY, deterministicId, memoryDecider, userStream } from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { findExpiredPendingMemories } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { eachApart } from '../each-apart';

/**
 * Turns every pending candidate older than its workspace's TTL into a MemoryExpired event (seed 002:
 * expired candidates count as rejected). The work list is the memories read model, so the job survives
 * restarts and catches up after downtime; the event id names the memory and its pending period, so two
 * workers (or a re-run) expire a candidate once. Time comes from the injected clock.
 */
export async function expirePendingMemories(
  deps: ProcessManagerDependencies,
  limit = 200,
): Promise<number> {
  const now = deps.clock.now().toUTC();
  const due = await findExpiredPendingMemories(
    deps.dataSource.manager,
    now.toJSDate(),
    DEFAULT_MEMORY_POLICY.pendingTtlDays,
    limit,
  );
  let expired = 0;
  await eachApart(due, async (candidate) => {
    const result = await handleCommand(
      deps,
      userStream(candidate.workspaceId, candidate.userId, 'memory', candidate.memoryId),
      memoryDecider,
      { type: 'ExpireMemory' },
      {
        metadata: {
          workspaceId: candidate.workspaceId,
          userId: candidate.userId,
          causationId: `expiry@${candidate.position}`,
          correlationId: randomUUID(),
          occurredAt: now.toISO()!,
        },
        eventIds: () => [deterministicId('expiry', candidate.memoryId, candidate.position)],
      },
    );
    expired += result.events.length;
  });
  return expired;
}
