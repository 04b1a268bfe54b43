import type { EventDefinition } from '@engram/domain';
import type { EventRecord, OpenedRecord, PayloadCipher } from '@engram/event-store';
import { openSealedRecord, type OwnerKeys } from './data-key-cipher';

/**
 * The keys given to `GivenKeysCipher` did not open a record (none for its owner, or one that does not
 * open it): the caller opens it with its own cipher.
 */
export class GivenKeyDidNotOpenError extends Error {
  override readonly name = 'GivenKeyDidNotOpenError';
  constructor(readonly eventId: string) {
    super(`no key given for the owner of event ${eventId} opens it`);
  }
}

/**
 * Opens records with data keys another cipher looked up (`DataKeyCipher.keysOf`), without a database:
 * what a thread that renders pages for its process uses, so that every key it sees is the one its
 * process holds (a key destroyed there is destroyed here). Reads only: it seals nothing. A key that
 * does not open a record (destroyed and re-made since, or the record altered) is not retried here:
 * `GivenKeyDidNotOpenError`, and the caller opens the page itself, fresh keys and all.
 */
export class GivenKeysCipher implements PayloadCipher {
  private readonly keys: ReadonlyMap<string, Buffer | undefined>;

  constructor(keys: OwnerKeys) {
    this.keys = new Map(keys);
  }

  seal(): Promise<EventRecord> {
    return Promise.reject(new Error('GivenKeysCipher only opens records'));
  }

  open(record: EventRecord, definition: EventDefinition): Promise<OpenedRecord> {
    return this.openAll([record], [definition]).then(([opened]) => opened!);
  }

  openAll(
    records: readonly EventRecord[],
    definitions: readonly EventDefinition[],
  ): Promise<OpenedRecord[]> {
    return Promise.resolve().then(() =>
      records.map((record, i) => {
        const opened = openSealedRecord(this.keys, record, definitions[i]!);
        if (!opened) throw new GivenKeyDidNotOpenError(record.eventId);
        return opened;
      }),
    );
  }
}
