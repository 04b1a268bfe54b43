import type { EventMetadata } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';

/** Metadata of an event caused by `cause`: same owner, trace and correlation; time given by the caller. */
export function followUpMetadata(cause: DecodedEvent, occurredAt: string): EventMetadata {
  return {
    workspaceId: cause.metadata.workspaceId,
    userId: cause.metadata.userId,
    ...(cause.metadata.traceId ? { traceId: cause.metadata.traceId } : {}),
    ...(cause.metadata.channel ? { channel: cause.metadata.channel } : {}),
    causationId: cause.eventId,
    correlationId: cause.metadata.correlationId,
    occurredAt,
  };
}
