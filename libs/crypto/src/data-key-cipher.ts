import type { Pool } from 'pg';
import type { EventDefinition } from '@engram/domain';
import type { EventRecord, OpenedRecord, PayloadCipher } from '@engram/event-store';
import { decrypt, encrypt, type Sealed } from './aes-gcm';
import { SealedPayloadError } from './errors';
import { KeyStore, type KeyStoreOptions } from './key-store';
import { ownerKeyId } from './key-rows';

/** The data field that holds an event's personal fields, encrypted. */
export const SEALED_FIELD = '_sealed';

/** What `_sealed` holds: AES-256-GCM of the JSON of the personal fields, base64, AAD = the event id. */
export type SealedEnvelope = Readonly<{ v: 1; iv: string; tag: string; ct: string }>;

/**
 * Encryption of personal data at rest, with one data key per owner (crypto-shredding).
 *
 * `seal` moves the personal fields of an event (its definition's `personalFields` present in the data)
 * into one envelope field: `{ ...other fields, _sealed: { v: 1, iv, tag, ct } }`, encrypted with the key
 * of the event's owner (metadata workspaceId, userId). The event id is the additional authenticated
 * data, so a sealed blob copied into another event does not open. Routing fields, metadata and the
 * non-personal data stay in clear (streams, filters, projections' keys keep working). An event with no
 * personal field present is stored as it is.
 *
 * `open` reverses it; when the owner's key was destroyed it answers `erased: true`, with the personal
 * fields absent.
 */
export class DataKeyCipher implements PayloadCipher {
  readonly keys: KeyStore;

  constructor(pool: Pool, masterKey: Buffer, options: KeyStoreOptions = {}) {
    this.keys = new KeyStore(pool, masterKey, options);
  }

  async seal(record: EventRecord, definition: EventDefinition): Promise<EventRecord> {
    const rest: Record<string, unknown> = { ...record.data };
    const personal: Record<string, unknown> = {};
    for (const field of definition.personalFields) {
      if (!Object.hasOwn(rest, field)) continue;
      if (rest[field] !== undefined) personal[field] = rest[field];
      delete rest[field];
    }
    if (Object.keys(personal).length === 0) return record;
    if (Object.hasOwn(rest, SEALED_FIELD)) {
      throw new Error(`${record.type} ${record.eventId}: data already has a ${SEALED_FIELD} field`);
    }
    const { workspaceId, userId } = ownerOf(record);
    const key = await this.keys.keyForWriting(workspaceId, userId);
    const sealed = encrypt(key, Buffer.from(JSON.stringify(personal), 'utf8'), aadOf(record));
    const envelope: SealedEnvelope = {
      v: 1,
      iv: sealed.iv.toString('base64'),
      tag: sealed.tag.toString('base64'),
      ct: sealed.ct.toString('base64'),
    };
    return { ...record, data: { ...rest, [SEALED_FIELD]: envelope } };
  }

  async open(record: EventRecord, definition: EventDefinition): Promise<OpenedRecord> {
    if (!Object.hasOwn(record.data, SEALED_FIELD)) return { record, erased: false };
    const { workspaceId, userId } = ownerOf(record);
    const key = await this.keys.keyForReading(workspaceId, userId);
    return openWith(key, record, definition) ?? this.openWithFreshKey(record, definition);
  }

  /**
   * A page's records: one key lookup per owner of the sealed ones (a page of one user's history, as
   * the export reads, asks once), then each record opened synchronously. Per record, `open` costs a
   * few promises and their microtasks, which weighed as much as the decryption itself on the export's
   * path. Fails as `open` would, for the whole page: a missing key, an envelope that does not open.
   */
  async openAll(
    records: readonly EventRecord[],
    definitions: readonly EventDefinition[],
  ): Promise<OpenedRecord[]> {
    const { owners, keys } = await this.lookUpKeys(records);
    const opened: OpenedRecord[] = [];
    const retries: Promise<void>[] = [];
    records.forEach((record, i) => {
      const owner = owners[i];
      const result =
        owner === undefined
          ? { record, erased: false }
          : openWith(keys.get(owner), record, definitions[i]!);
      if (result) opened[i] = result;
      // Rare: the cached key did not open it (destroyed since, by another process).
      else
        retries.push(
          this.openWithFreshKey(record, definitions[i]!).then((r) => void (opened[i] = r)),
        );
    });
    if (retries.length > 0) await Promise.all(retries);
    return opened;
  }

  /**
   * The keys of these owners from this cipher's cache, one lookup each (undefined: destroyed), by
   * `ownerKeyId`: what `openSealedRecord` needs, for records opened elsewhere (the export's thread).
   */
  async keysOf(owners: readonly KeyOwner[]): Promise<OwnerKeys> {
    const distinct = new Map(
      owners.map((owner) => [ownerKeyId(owner.workspaceId, owner.userId), owner]),
    );
    return Promise.all(
      [...distinct].map(
        async ([id, { workspaceId, userId }]) =>
          [id, await this.keys.keyForReading(workspaceId, userId)] as const,
      ),
    );
  }

  /** Each record's owner id (undefined: nothing sealed) and their keys, looked up once per owner. */
  private async lookUpKeys(records: readonly EventRecord[]): Promise<{
    owners: (string | undefined)[];
    keys: Map<string, Buffer | undefined>;
  }> {
    const sealed = new Map<string, KeyOwner>();
    const owners = records.map((record) => {
      if (!Object.hasOwn(record.data, SEALED_FIELD)) return undefined;
      const owner = ownerOf(record);
      const id = ownerKeyId(owner.workspaceId, owner.userId);
      if (!sealed.has(id)) sealed.set(id, owner);
      return id;
    });
    return { owners, keys: new Map(await this.keysOf([...sealed.values()])) };
  }

  /** The cached key did not open the record: the database's current key decides. */
  private async openWithFreshKey(
    record: EventRecord,
    definition: EventDefinition,
  ): Promise<OpenedRecord> {
    const { workspaceId, userId } = ownerOf(record);
    const fresh = await this.keys.keyForReading(workspaceId, userId, { fresh: true });
    const opened = openWith(fresh, record, definition);
    if (!opened) {
      throw new SealedPayloadError(
        record.eventId,
        "it was altered, or moved from another event, or sealed with a key that is not its owner's",
      );
    }
    return opened;
  }
}

/** Whose data key: a user of a workspace. */
export type KeyOwner = Readonly<{ workspaceId: string; userId: string }>;

/** Data keys by `ownerKeyId`; undefined for a destroyed one. */
export type OwnerKeys = ReadonlyArray<readonly [string, Buffer | undefined]>;

/**
 * A record opened with its owner's key taken from `keys` (`keysOf`): as it is when nothing is
 * sealed; in clear; without its personal fields when the key was destroyed; undefined when the key
 * does not open it or `keys` has none for its owner.
 */
export function openSealedRecord(
  keys: ReadonlyMap<string, Buffer | undefined>,
  record: EventRecord,
  definition: EventDefinition,
): OpenedRecord | undefined {
  if (!Object.hasOwn(record.data, SEALED_FIELD)) return { record, erased: false };
  const { workspaceId, userId } = ownerOf(record);
  const id = ownerKeyId(workspaceId, userId);
  return keys.has(id) ? openWith(keys.get(id), record, definition) : undefined;
}

/**
 * A sealed record opened with its owner's key: in clear, or without its personal fields when the key
 * was destroyed (`key` undefined); undefined when the key does not open it.
 */
function openWith(
  key: Buffer | undefined,
  record: EventRecord,
  definition: EventDefinition,
): OpenedRecord | undefined {
  // Copied by a loop: a rest pattern (`{ [SEALED_FIELD]: envelope, ...rest }`) takes V8's slow path,
  // and every event read goes through here.
  const rest: Record<string, unknown> = {};
  for (const field of Object.keys(record.data)) {
    if (field !== SEALED_FIELD) rest[field] = record.data[field];
  }
  const sealed = parseEnvelope(record.eventId, record.data[SEALED_FIELD]);
  if (!key) {
    for (const field of definition.personalFields) delete rest[field];
    return { record: { ...record, data: rest }, erased: true };
  }
  const personal = tryDecrypt(key, sealed, record);
  if (personal === undefined) return undefined;
  return { record: { ...record, data: Object.assign(rest, personal) }, erased: false };
}

function aadOf(record: EventRecord): Buffer {
  return Buffer.from(record.eventId, 'utf8');
}

function ownerOf(record: EventRecord): { workspaceId: string; userId: string } {
  const { workspaceId, userId } = record.metadata;
  if (
    typeof workspaceId !== 'string' ||
    workspaceId === '' ||
    typeof userId !== 'string' ||
    userId === ''
  ) {
    throw new Error(
      `${record.type} ${record.eventId}: personal data needs an owner (metadata workspaceId and userId)`,
    );
  }
  return { workspaceId, userId };
}

function parseEnvelope(eventId: string, value: unknown): Sealed {
  const envelope = value as Partial<Record<keyof SealedEnvelope, unknown>> | null;
  if (
    typeof envelope !== 'object' ||
    envelope === null ||
    envelope.v !== 1 ||
    typeof envelope.iv !== 'string' ||
    typeof envelope.tag !== 'string' ||
    typeof envelope.ct !== 'string'
  ) {
    throw new SealedPayloadError(eventId, `${SEALED_FIELD} is not a version 1 envelope`);
  }
  return {
    iv: Buffer.from(envelope.iv, 'base64'),
    tag: Buffer.from(envelope.tag, 'base64'),
    ct: Buffer.from(envelope.ct, 'base64'),
  };
}

function tryDecrypt(
  key: Buffer,
  sealed: Sealed,
  record: EventRecord,
): Record<string, unknown> | undefined {
  let plaintext: Buffer;
  try {
    plaintext = decrypt(key, sealed, aadOf(record));
  } catch {
    return undefined;
  }
  return JSON.parse(plaintext.toString('utf8')) as Record<string, unknown>;
}
