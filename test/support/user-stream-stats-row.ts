import type { UserStreamStats } from '@engram/projections';

/** A `user_stream_stats` row of workspace `w`: what the checkpoint-advance tests upsert. */
export function userStreamStatsRow(userId: string): UserStreamStats {
  return {
    workspaceId: 'w',
    userId,
    eventCount: 1,
    messageCount: 1,
    firstEventAt: new Date('2026-06-08T16:40:00.000Z'),
    lastEventAt: new Date('2026-06-08T16:40:00.000Z'),
    lastPosition: '1',
  };
}
