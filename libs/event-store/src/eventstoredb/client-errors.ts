import { ErrorType, isCommandError } from '@eventstore/db-client';
import {
  AppendTooLargeError,
  EventStoreAccessDeniedError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '../errors';
import type { ExpectedRevision } from '../event-store.port';

/** The client's error of one of these types (the client's own classes, told apart by `type`). */
export function isEsdbError(error: unknown, ...types: readonly ErrorType[]): boolean {
  return error instanceof Error && isCommandError(error) && types.includes(error.type);
}

/**
 * The port's error for what any call can meet: a deadline, an unreachable or not-leading node,
 * refused credentials. Anything else is returned unchanged (the caller maps what is its own).
 */
export function toStoreError(error: unknown): unknown {
  if (!(error instanceof Error) || !isCommandError(error)) return error;
  switch (error.type) {
    case ErrorType.DEADLINE_EXCEEDED:
    case ErrorType.TIMEOUT:
      return new EventStoreUnavailableError('deadline_exceeded', { cause: error });
    case ErrorType.UNAVAILABLE:
      return new EventStoreUnavailableError('unavailable', { cause: error });
    case ErrorType.NOT_LEADER:
      // The client reconnects to the leader it was told about on its next call.
      return new EventStoreUnavailableError('not_leader', { cause: error });
    case ErrorType.ACCESS_DENIED:
      return new EventStoreAccessDeniedError({ cause: error });
    default:
      return error;
  }
}

export function toAppendError(
  error: unknown,
  streamId: string,
  expected: ExpectedRevision,
): unknown {
  if (!(error instanceof Error) || !isCommandError(error)) return error;
  switch (error.type) {
    case ErrorType.WRONG_EXPECTED_VERSION:
      return new WrongExpectedVersionError(streamId, expected, error.actualVersion);
    case ErrorType.STREAM_DELETED:
      return new StreamDeletedError(streamId);
    case ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED:
      return new AppendTooLargeError(streamId, error.maxAppendSize, { cause: error });
    default:
      return toStoreError(error);
  }
}
