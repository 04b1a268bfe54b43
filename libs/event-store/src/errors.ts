import type { ExpectedRevision } from './event-store.port';

export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

export class StreamNotFoundError extends Error {
  override readonly name = 'StreamNotFoundError';
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} not found`);
  }
}

export class StreamDeletedError extends Error {
  override readonly name = 'StreamDeletedError';
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} is deleted`);
  }
}

/** An event id was appended again with a different stream or content than the first time. */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(readonly eventId: string) {
    super(`Event id ${eventId} was already appended with different content`);
  }
}
