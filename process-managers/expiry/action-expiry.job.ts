import { randomUUID } from 'node:crypto';
import { actionDecider, deterministicId, userStream } from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { findExpiredPendingActions } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { eachApart } from '../each-apart';

/**
 * Records ActionExpired for every pending action past its expiry, with the same guarantees as the memory
 * expiry: the work list is a read model (survives restarts, catches up), the event id is the action's
 * (never twice), and time comes from the injected clock.
 */
export async function expirePendingActions(
  deps: ProcessManagerDependencies,
  limit = 200,
): Promise<number> {
  const now = deps.clock.now().toUTC();
  const due = await findExpiredPendingActions(deps.dataSource.manager, now.toJSDate(), limit);
  let expired = 0;
  await eachApart(due, async ({ workspaceId, userId, actionId }) => {
    const result = await handleCommand(
      deps,
      userStream(workspaceId, userId, 'action', actionId),
      actionDecider,
      { type: 'ExpireAction', now: now.toISO()! },
      {
        metadata: (history) => ({
          workspaceId,
          userId,
          ...(history[0]?.metadata.traceId ? { traceId: history[0].metadata.traceId } : {}),
          causationId: history.at(-1)?.eventId ?? actionId,
          correlationId: randomUUID(),
          occurredAt: now.toISO()!,
        }),
        eventIds: () => [deterministicId('action-expiry', workspaceId, userId, actionId)],
      },
    );
    expired += result.events.length;
  });
  return expired;
}
