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

/**
 * The store did not answer in time, is unreachable, or the node is not the one that can serve the
 * call (a follower asked to write, during an election): transient, the caller may retry.
 */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
  constructor(
    readonly reason: 'deadline_exceeded' | 'unavailable' | 'not_leader',
    options?: ErrorOptions,
  ) {
    super(`The event store is unavailable (${reason.replace('_', ' ')})`, options);
  }
}

/** The store refused Engram's credentials for this call: a deployment error, not the caller's. */
export class EventStoreAccessDeniedError extends Error {
  override readonly name = 'EventStoreAccessDeniedError';
  constructor(options?: ErrorOptions) {
    super('The event store denied access to the credentials Engram connects with', options);
  }
}

/** One append carried more than the store accepts in a single write (EventStoreDB: 1 MiB by default). */
export class AppendTooLargeError extends Error {
  override readonly name = 'AppendTooLargeError';
  constructor(
    readonly streamId: string,
    readonly maxBytes: number | undefined,
    options?: ErrorOptions,
  ) {
    super(
      `The append to ${streamId} is larger than the event store accepts in one write` +
        (maxBytes === undefined ? '' : ` (${maxBytes} bytes)`),
      options,
    );
  }
}

/**
 * A per-user read could not reach the position it was asked to (`consistentThrough`) in time: the
 * store's per-user index (EventStoreDB's category stream) trails the appends. Transient.
 */
export class UserEventsBehindError extends Error {
  override readonly name = 'UserEventsBehindError';
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    readonly position: bigint,
    readonly reached: bigint | undefined,
    readonly waitedMs: number,
  ) {
    super(
      `The events of ${workspaceId}/${userId} are indexed up to ${reached ?? 'nothing'}, not yet ` +
        `${position}, after ${waitedMs} ms`,
    );
  }
}

/** The store is not set up the way the adapter needs (e.g. EventStoreDB's `$by_category`). */
export class EventStoreMisconfiguredError extends Error {
  override readonly name = 'EventStoreMisconfiguredError';
}
