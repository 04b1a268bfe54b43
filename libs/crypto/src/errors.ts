/** Personal data cannot be written for an owner whose key was destroyed (the user was erased). */
export class DataKeyDestroyedError extends Error {
  override readonly name = 'DataKeyDestroyedError';
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
  ) {
    super(
      `The data key of ${workspaceId}/${userId} was destroyed (erasure): no personal data can be written for this user`,
    );
  }
}

/** A sealed payload whose owner has no key at all: the data_keys table does not match the events. */
export class DataKeyMissingError extends Error {
  override readonly name = 'DataKeyMissingError';
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
  ) {
    super(
      `No data key for ${workspaceId}/${userId}, yet an event of theirs is sealed: data_keys was not restored with the events?`,
    );
  }
}

/** A data key wrapped by another master key than the one this process has. */
export class WrongMasterKeyError extends Error {
  override readonly name = 'WrongMasterKeyError';
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    detail: string,
  ) {
    super(
      `The data key of ${workspaceId}/${userId} cannot be unwrapped with this master key (${detail}); ` +
        'was the master key rotated? Restart with the current ENGRAM_MASTER_KEY',
    );
  }
}

/** A sealed payload that does not open with its owner's key: altered, or moved from another event. */
export class SealedPayloadError extends Error {
  override readonly name = 'SealedPayloadError';
  constructor(
    readonly eventId: string,
    detail: string,
  ) {
    super(`The sealed payload of event ${eventId} cannot be opened: ${detail}`);
  }
}
