import type { RecordedEvent, UnparsedEvent } from './event-store.port';

/** The event with its data and metadata as JSON text (a store that has them parsed already). */
export function unparseEvent(event: RecordedEvent): UnparsedEvent {
  return { ...event, data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata) };
}

export function parseUnparsedEvent(event: UnparsedEvent): RecordedEvent {
  return {
    ...event,
    data: JSON.parse(event.data) as Record<string, unknown>,
    metadata: JSON.parse(event.metadata) as Record<string, unknown>,
  };
}
