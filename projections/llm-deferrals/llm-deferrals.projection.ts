import { assertNever } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection } from '../runner/projection';
import { LlmDeferral } from './llm-deferrals.entity';

const HANDLES = ['LlmCallDeferred', 'LlmCallResumed'] as const;
type DeferralEvent = DecodedEvent<HandledBy<typeof HANDLES>>;

function keyOf(
  event: DeferralEvent,
): Pick<LlmDeferral, 'workspaceId' | 'userId' | 'purpose' | 'cause'> {
  const { workspaceId, userId } = event.metadata;
  return { workspaceId, userId, purpose: event.event.data.purpose, cause: event.event.data.cause };
}

/**
 * A deferral is listed until the deferred work ran. A resumption names the `until` it resumes: work
 * deferred again meanwhile (the next day's budget spent too) has a later one and stays listed.
 */
export const llmDeferralsProjection: Projection<LlmDeferral, HandledBy<typeof HANDLES>> = {
  name: 'llm_deferrals',
  entity: LlmDeferral,
  key: ['workspaceId', 'userId', 'purpose', 'cause'],
  handles: HANDLES,
  keysOf: (event) => [keyOf(event)],
  apply: (event, rows) => {
    const key = keyOf(event);
    switch (event.event.type) {
      case 'LlmCallDeferred': {
        const { data } = event.event;
        return [
          {
            kind: 'upsert',
            row: {
              ...key,
              messageId: data.messageId,
              generation: data.generation ?? null,
              limit: data.limit,
              deferredAt: rows.get(key)?.deferredAt ?? new Date(event.metadata.occurredAt),
              until: new Date(data.until),
              position: rows.get(key)?.position ?? event.globalPosition.toString(),
            },
          },
        ];
      }
      case 'LlmCallResumed': {
        const row = rows.get(key);
        if (!row || row.until.getTime() !== new Date(event.event.data.until).getTime()) return [];
        return [{ kind: 'delete', row }];
      }
      default:
        return assertNever(event.event);
    }
  },
};
