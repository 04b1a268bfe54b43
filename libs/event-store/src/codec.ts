import type { Event, EventDefinition, EventEnvelope, EventMetadata } from '@engram/domain';
import type { EventRecord, RecordedEvent } from './event-store.port';

/** What a cipher gives back on read: the record in clear, or without its personal fields when they were erased. */
export type OpenedRecord = Readonly<{
  record: EventRecord;
  /**
   * True when the payload's personal data can no longer be read because its owner's key was destroyed
   * (crypto-shredding): the personal fields are then absent from `record.data`.
   */
  erased: boolean;
}>;

/**
 * Where payload encryption plugs in: it sees each record with the definition of its type
 * (so it knows which fields are personal) and returns the record to store / to decode.
 */
export interface PayloadCipher {
  seal(record: EventRecord, definition: EventDefinition): Promise<EventRecord>;
  open(record: EventRecord, definition: EventDefinition): Promise<OpenedRecord>;
  /** Many records at once (same results as `open` on each), when the cipher can share work between them. */
  openAll?(
    records: readonly EventRecord[],
    definitions: readonly EventDefinition[],
  ): Promise<OpenedRecord[]>;
}

export const plainPayloads: PayloadCipher = {
  seal: (record) => Promise.resolve(record),
  open: (record) => Promise.resolve({ record, erased: false }),
};

export type DecodedEvent<E extends Event = Event> = EventEnvelope<E> &
  Readonly<{
    streamId: string;
    streamRevision: bigint;
    globalPosition: bigint;
    recordedAt: Date;
    /**
     * The owner's key was destroyed (erasure): the event's personal fields are absent from its data.
     * Consumers must not expect them (a projection keeps what it has, a reactor skips the event).
     */
    erased: boolean;
  }>;

export class UnknownEventTypeError extends Error {
  override readonly name = 'UnknownEventTypeError';
  constructor(readonly type: string) {
    super(`Unknown event type ${type}: it is not in the event catalog`);
  }
}

/** Turns domain events into stored records and back, upcasting older schema versions on read. */
export class EventCodec {
  private readonly definitions: ReadonlyMap<string, EventDefinition>;

  constructor(
    catalog: readonly EventDefinition[],
    private readonly cipher: PayloadCipher = plainPayloads,
  ) {
    this.definitions = new Map(catalog.map((definition) => [definition.type, definition]));
  }

  definitionOf(type: string): EventDefinition {
    const definition = this.definitions.get(type);
    if (!definition) throw new UnknownEventTypeError(type);
    return definition;
  }

  knows(type: string): boolean {
    return this.definitions.has(type);
  }

  async encode(envelope: EventEnvelope): Promise<EventRecord> {
    const definition = this.definitionOf(envelope.event.type);
    const record: EventRecord = {
      eventId: envelope.eventId,
      type: envelope.event.type,
      schemaVersion: definition.version,
      data: { ...envelope.event.data },
      metadata: { ...envelope.metadata },
    };
    return this.cipher.seal(record, definition);
  }

  async decode<E extends Event = Event>(recorded: RecordedEvent): Promise<DecodedEvent<E>> {
    const definition = this.definitionOf(recorded.type);
    return decoded<E>(recorded, definition, await this.cipher.open(recorded, definition));
  }

  /**
   * A page of events, in order: what `decode` gives for each, with the cipher's work shared between
   * them when it can (one key lookup per owner instead of one per event).
   */
  async decodeAll(page: readonly RecordedEvent[]): Promise<DecodedEvent[]> {
    const definitions = page.map((recorded) => this.definitionOf(recorded.type));
    if (!this.cipher.openAll) return Promise.all(page.map((recorded) => this.decode(recorded)));
    const opened = await this.cipher.openAll(page, definitions);
    return page.map((recorded, i) => decoded(recorded, definitions[i]!, opened[i]!));
  }
}

function decoded<E extends Event = Event>(
  recorded: RecordedEvent,
  definition: EventDefinition,
  { record: opened, erased }: OpenedRecord,
): DecodedEvent<E> {
  const data = upcast(definition, opened.schemaVersion, opened.data);
  return {
    eventId: recorded.eventId,
    event: { type: recorded.type, data } as unknown as E,
    metadata: opened.metadata as unknown as EventMetadata,
    streamId: recorded.streamId,
    streamRevision: recorded.streamRevision,
    globalPosition: recorded.globalPosition,
    recordedAt: recorded.recordedAt,
    erased,
  };
}

function upcast(
  definition: EventDefinition,
  storedVersion: number,
  data: Record<string, unknown>,
): Record<string, unknown> {
  let current = data;
  for (let version = storedVersion; version < definition.version; version += 1) {
    const upcaster = definition.upcasters?.[version];
    if (!upcaster) {
      throw new Error(`${definition.type}: no upcaster from version ${version} to ${version + 1}`);
    }
    current = upcaster(current);
  }
  return current;
}
