import { assertNever } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection } from '../runner/projection';
import { Session } from './sessions.entity';

const HANDLES = ['MessageRecorded', 'RollingSummaryExtended'] as const;
type Handled = HandledBy<typeof HANDLES>;

function sessionKey(
  event: DecodedEvent<Handled>,
): Pick<Session, 'workspaceId' | 'userId' | 'sessionId'> {
  const { sessionId } = event.event.data;
  return { workspaceId: event.metadata.workspaceId, userId: event.metadata.userId, sessionId };
}

/**
 * Sessions are created by their first message. A summary is appended after the messages it covers,
 * so its session already exists; a summary of an unknown session changes nothing.
 */
export const sessionsProjection: Projection<Session, Handled> = {
  name: 'sessions',
  entity: Session,
  key: ['workspaceId', 'userId', 'sessionId'],
  handles: HANDLES,
  keysOf: (event) => [sessionKey(event)],
  apply: (event, rows) => {
    const key = sessionKey(event);
    const current = rows.get(key);
    const at = new Date(event.metadata.occurredAt);
    const { event: payload } = event;
    switch (payload.type) {
      case 'MessageRecorded': {
        const position = event.globalPosition.toString();
        const row: Session = current
          ? {
              ...current,
              messageCount: current.messageCount + 1,
              firstMessageAt: at < current.firstMessageAt ? at : current.firstMessageAt,
              lastMessageAt: at > current.lastMessageAt ? at : current.lastMessageAt,
              lastPosition: position,
            }
          : {
              ...key,
              messageCount: 1,
              summarizedCount: 0,
              summarizedThroughPosition: '0',
              rollingSummary: '',
              summaryModel: null,
              summaryUpdatedAt: null,
              firstMessageAt: at,
              lastMessageAt: at,
              lastPosition: position,
            };
        return [{ kind: 'upsert', row }];
      }
      case 'RollingSummaryExtended': {
        if (!current) return [];
        const { data } = payload;
        const row: Session = {
          ...current,
          summarizedCount: data.summarizedCount,
          summarizedThroughPosition: data.throughPosition,
          rollingSummary: data.summary,
          summaryModel: data.model,
          summaryUpdatedAt: at,
        };
        return [{ kind: 'upsert', row }];
      }
      default:
        return assertNever(payload);
    }
  },
};
