import { EVENT_CATALOG, parseStreamName } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { Projection } from '../runner/projection';
import { UserStreamStats } from './user-stream-stats.entity';

function ownerOf(event: DecodedEvent): { workspaceId: string; userId: string } | undefined {
  const owner = parseStreamName(event.streamId);
  return owner?.userId ? { workspaceId: owner.workspaceId, userId: owner.userId } : undefined;
}

export const userStreamStatsProjection: Projection<UserStreamStats> = {
  name: 'user_stream_stats',
  entity: UserStreamStats,
  key: ['workspaceId', 'userId'],
  handles: EVENT_CATALOG.map((definition) => definition.type),
  keysOf: (event) => {
    const owner = ownerOf(event);
    return owner ? [owner] : [];
  },
  apply: (event, rows) => {
    const owner = ownerOf(event);
    if (!owner) return [];
    const current = rows.get(owner);
    const at = new Date(event.metadata.occurredAt);
    const isMessage = event.event.type === 'MessageRecorded' ? 1 : 0;
    const row: UserStreamStats = current
      ? {
          ...current,
          eventCount: current.eventCount + 1,
          messageCount: current.messageCount + isMessage,
          firstEventAt: at < current.firstEventAt ? at : current.firstEventAt,
          lastEventAt: at > current.lastEventAt ? at : current.lastEventAt,
          lastPosition: event.globalPosition.toString(),
        }
      : {
          ...owner,
          eventCount: 1,
          messageCount: isMessage,
          firstEventAt: at,
          lastEventAt: at,
          lastPosition: event.globalPosition.toString(),
        };
    return [{ kind: 'upsert', row }];
  },
};
