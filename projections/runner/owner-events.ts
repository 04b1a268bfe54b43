import type { EventStore, RecordedEvent } from '@engram/event-store';
import { WORKSPACE_OWNER, type Owner } from './partitions';

const PAGE = 1_000;

/**
 * One owner's events after `after` up to `through` (inclusive), in global order: a user's through
 * the store's per-user read, a workspace's through its `{ws}/~/` streams. Used to apply again what
 * waited behind a parked event. `consistentThrough`, the position of one of the user's own events
 * (`ParkingLot.resumeThrough`), makes the per-user read hold everything up to it: a store whose
 * per-user index trails the appends waits for it (bounded, then UserEventsBehindError, which the
 * runners retry with backoff) rather than answer without the newest events.
 */
export async function readOwnerEvents(
  store: EventStore,
  owner: Owner,
  after: bigint,
  through: bigint,
  consistentThrough?: bigint,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let from = after; ;) {
    const page =
      owner.userId === WORKSPACE_OWNER
        ? await store.readAll({
            after: from,
            maxCount: PAGE,
            filter: { streamPrefixes: [`${owner.workspaceId}/${WORKSPACE_OWNER}/`] },
          })
        : await store.readUserEvents(owner.workspaceId, owner.userId, {
            after: from,
            maxCount: PAGE,
            ...(consistentThrough === undefined ? {} : { consistentThrough }),
          });
    for (const event of page) {
      if (event.globalPosition > through) return events;
      events.push(event);
    }
    if (page.length < PAGE) return events;
    from = page.at(-1)!.globalPosition;
  }
}
