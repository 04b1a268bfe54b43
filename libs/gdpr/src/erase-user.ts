import { randomUUID } from 'node:crypto';
import { erasureDecider, userStream, type Clock } from '@engram/domain';
import { handleCommand, type EventCodec, type EventStore } from '@engram/event-store';
import type { UserKeys } from './user-keys';

export type ErasureDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  keys: UserKeys;
  clock: Clock;
}>;

export type ErasureOutcome = Readonly<{ streamsDeleted: number; position: bigint }>;

/**
 * GDPR erasure (HTTP and CLI): records who erased the user (UserErased, no personal data), closes the
 * user to new streams, destroys the user's data key (what remains of their events is unreadable),
 * deletes their streams (tombstones on EventStoreDB) except the erasure record; the projections
 * delete their read-model rows on UserErased.
 * Every step is idempotent, so a request interrupted half way is completed by the next one.
 */
export async function eraseUser(
  deps: ErasureDependencies,
  workspaceId: string,
  userId: string,
  requestedBy: string,
  correlationId: string = randomUUID(),
): Promise<ErasureOutcome> {
  const record = userStream(workspaceId, userId, 'erasure', 'record');
  const result = await handleCommand(
    deps,
    record,
    erasureDecider,
    { type: 'EraseUser', requestedBy },
    {
      metadata: {
        workspaceId,
        userId,
        causationId: correlationId,
        correlationId,
        occurredAt: deps.clock.now().toUTC().toISO()!,
      },
    },
  );
  // No new stream of the user from now on but the record and the audit trail (an export showing
  // only the erasure is still audited): work still in flight (a job that took them as due, a process
  // whose key cache still holds their key) cannot start a history after this.
  await deps.store.closeOwner(workspaceId, userId, [
    record,
    userStream(workspaceId, userId, 'audit', ''),
  ]);
  await deps.keys.destroyKey(workspaceId, userId);
  const streams = new Set<string>();
  for (let after: bigint | 'start' = 'start'; ;) {
    // Every stream up to the erasure record, whatever the lag of a store's per-user index (the
    // stores that close owners atomically read the user's streams as they are now, after closing).
    const page = await deps.store.readUserEvents(workspaceId, userId, {
      after,
      maxCount: 1000,
      consistentThrough: result.position,
      whenBehind: 'scan',
    });
    for (const event of page) if (event.streamId !== record) streams.add(event.streamId);
    const last = page.at(-1);
    if (!last) break;
    after = last.globalPosition;
  }
  for (const stream of streams) await deps.store.deleteStream(stream);
  return { streamsDeleted: streams.size, position: result.position };
}
