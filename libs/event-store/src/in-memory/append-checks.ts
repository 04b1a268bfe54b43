import { DuplicateEventIdError, WrongExpectedVersionError } from '../errors';
import type { AppendResult, EventRecord, ExpectedRevision } from '../event-store.port';
import type { StoredEvent } from './stored-event';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Event ids as PostgreSQL keeps them (a uuid column: lower case), refused where it refuses them, so
 * that a unit test cannot pass with ids production would reject.
 */
export function normalizeIds(streamId: string, events: readonly EventRecord[]): EventRecord[] {
  const normalized = events.map((event) => ({ ...event, eventId: event.eventId.toLowerCase() }));
  for (const { eventId } of normalized) {
    if (!UUID.test(eventId)) throw new Error(`Append to ${streamId}: ${eventId} is not a UUID`);
  }
  if (new Set(normalized.map((e) => e.eventId)).size !== normalized.length) {
    throw new Error(`Append to ${streamId}: the same event id appears twice`);
  }
  return normalized;
}

/**
 * The answer to an append some of whose ids are stored already (engram_append_batch's rule): every id
 * stored in this stream at consecutive revisions, in the same order, is a retry answered with the
 * first result; anything else reuses an id, and the first one found is named.
 */
export function answerRetry(
  streamId: string,
  ids: readonly string[],
  found: readonly (StoredEvent | undefined)[],
): AppendResult {
  const first = found[0];
  const last = found.at(-1);
  const isRetry =
    first !== undefined &&
    last !== undefined &&
    found.every(
      (stored, index) =>
        stored?.streamId === streamId &&
        stored.streamRevision === first.streamRevision + BigInt(index),
    );
  if (!isRetry) {
    throw new DuplicateEventIdError(ids[found.findIndex((stored) => stored !== undefined)]!);
  }
  return {
    nextExpectedRevision: last.streamRevision,
    position: last.globalPosition,
    alreadyStored: true,
  };
}

/** Throws WrongExpectedVersionError unless the stream is where the writer expects it. */
export function checkExpectation(
  streamId: string,
  expected: ExpectedRevision,
  current: bigint | undefined,
): void {
  const holds =
    expected === 'any' ||
    (expected === 'no_stream' && current === undefined) ||
    (expected === 'stream_exists' && current !== undefined) ||
    expected === current;
  if (!holds) throw new WrongExpectedVersionError(streamId, expected, current ?? 'no_stream');
}
