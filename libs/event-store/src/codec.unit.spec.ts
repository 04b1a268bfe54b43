import type { EventDefinition } from '@engram/domain';
import { EventCodec, UnknownEventTypeError, type PayloadCipher } from './codec';
import type { RecordedEvent } from './event-store.port';

const metadata = {
  workspaceId: 'w1',
  userId: 'u1',
  causationId: 'c1',
  correlationId: 'k1',
  occurredAt: '2026-06-08T16:40:00.000Z',
};

const renamed: EventDefinition = {
  type: 'NoteTaken',
  version: 3,
  personalFields: ['body'],
  upcasters: {
    1: (data) => ({ ...data, body: data.text, text: undefined }),
    2: (data) => ({ ...data, tags: [] }),
  },
};

function stored(schemaVersion: number, data: Record<string, unknown>): RecordedEvent {
  return {
    eventId: 'e1',
    type: 'NoteTaken',
    schemaVersion,
    data,
    metadata,
    streamId: 'w1/u1/note/n1',
    streamRevision: 0n,
    globalPosition: 7n,
    recordedAt: new Date(0),
  };
}

describe('EventCodec', () => {
  it('encodes an event with its current schema version and metadata', async () => {
    const codec = new EventCodec([renamed]);
    const record = await codec.encode({
      eventId: 'e1',
      event: { type: 'NoteTaken', data: { body: 'hi', tags: [] } },
      metadata,
    });
    expect(record).toEqual({
      eventId: 'e1',
      type: 'NoteTaken',
      schemaVersion: 3,
      data: { body: 'hi', tags: [] },
      metadata,
    });
  });

  it('upcasts older stored versions step by step on read', async () => {
    const codec = new EventCodec([renamed]);
    const decoded = await codec.decode(stored(1, { text: 'hello' }));
    expect(decoded.event).toEqual({
      type: 'NoteTaken',
      data: { body: 'hello', text: undefined, tags: [] },
    });
    expect(decoded).toMatchObject({ globalPosition: 7n, streamId: 'w1/u1/note/n1', metadata });
  });

  it('refuses an event type that is not in the catalog, and a version with no upcaster', async () => {
    const codec = new EventCodec([renamed]);
    await expect(
      codec.encode({ eventId: 'x', event: { type: 'Unknown', data: {} }, metadata }),
    ).rejects.toBeInstanceOf(UnknownEventTypeError);
    const gap = new EventCodec([{ ...renamed, upcasters: { 2: (d) => d } }]);
    await expect(gap.decode(stored(1, {}))).rejects.toThrow('no upcaster from version 1 to 2');
  });

  it('passes every record through the payload cipher hook, with the definition of its type', async () => {
    const seen: string[] = [];
    const cipher: PayloadCipher = {
      seal: (record, definition) => {
        seen.push(`seal ${definition.personalFields.join()}`);
        return Promise.resolve({ ...record, data: { sealed: JSON.stringify(record.data) } });
      },
      open: (record) => {
        seen.push('open');
        return Promise.resolve({
          record: {
            ...record,
            data: JSON.parse(String(record.data.sealed)) as Record<string, unknown>,
          },
          erased: false,
        });
      },
    };
    const codec = new EventCodec([renamed], cipher);
    const record = await codec.encode({
      eventId: 'e1',
      event: { type: 'NoteTaken', data: { body: 'secret', tags: [] } },
      metadata,
    });
    expect(JSON.stringify(record.data)).not.toContain('"body"');
    const decoded = await codec.decode({ ...stored(3, {}), data: record.data });
    expect(decoded.event.data).toEqual({ body: 'secret', tags: [] });
    expect(decoded.erased).toBe(false);
    expect(seen).toEqual(['seal body', 'open']);
  });

  it('decodes a page in order, through the openAll of the cipher when it has one, each upcast', async () => {
    const opened: string[] = [];
    const cipher: PayloadCipher = {
      seal: (record) => Promise.resolve(record),
      open: () => Promise.reject(new Error('open is not called when openAll exists')),
      openAll: (records, definitions) => {
        opened.push(`${records.length} ${definitions.map((d) => d.type).join()}`);
        return Promise.resolve(records.map((record) => ({ record, erased: false })));
      },
    };
    const page = [
      { ...stored(1, { text: 'old' }), globalPosition: 1n },
      { ...stored(3, { body: 'new', tags: ['t'] }), globalPosition: 2n },
    ];
    const decoded = await new EventCodec([renamed], cipher).decodeAll(page);
    expect(opened).toEqual(['2 NoteTaken,NoteTaken']);
    expect(decoded.map((event) => [event.globalPosition, event.event.data])).toEqual([
      [1n, { body: 'old', text: undefined, tags: [] }],
      [2n, { body: 'new', tags: ['t'] }],
    ]);
    // Without openAll, each event through decode: the same result.
    const plain = await new EventCodec([renamed]).decodeAll(page);
    expect(plain).toEqual(decoded);
    await expect(new EventCodec([renamed]).decodeAll([])).resolves.toEqual([]);
  });

  it('decodes plain payloads as not erased', async () => {
    const decoded = await new EventCodec([renamed]).decode(stored(3, { body: 'hi', tags: [] }));
    expect(decoded.erased).toBe(false);
  });

  it('says when the cipher could not open the personal fields because the key was destroyed', async () => {
    const shredded: PayloadCipher = {
      seal: (record) => Promise.resolve(record),
      open: (record, definition) => {
        const data = { ...record.data };
        for (const field of definition.personalFields) delete data[field];
        return Promise.resolve({ record: { ...record, data }, erased: true });
      },
    };
    const decoded = await new EventCodec([renamed], shredded).decode(
      stored(3, { body: 'gone', tags: ['t'] }),
    );
    expect(decoded.erased).toBe(true);
    expect(decoded.event.data).toEqual({ tags: ['t'] });
    expect(decoded).toMatchObject({ globalPosition: 7n, metadata });
  });
});
