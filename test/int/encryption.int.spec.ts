import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import {
  ConfigError,
  loadConfig,
  loadOrCreateLocalSecrets,
  saveLocalMasterKey,
} from '@engram/config';
import {
  DataKeyCipher,
  DataKeyDestroyedError,
  KeyStore,
  SealedPayloadError,
  WrongMasterKeyError,
  type KeyStoreOptions,
} from '@engram/crypto';
import { EVENT_CATALOG, userStream, type Event, type EventMetadata } from '@engram/domain';
import { EventCodec, PostgresEventStore, type RecordedEvent } from '@engram/event-store';
import { prepareRuntime } from '@engram/platform';
import { rotateMasterKeyCommand } from '../../apps/cli/src/commands/rotate-master-key';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_MASTER_KEY, testRuntime } from '../support/test-runtime';

const MESSAGE_TEXT = 'Mon numéro de passeport est 19AB12345, ne le dis à personne';
const MEMORY_CONTENT = 'Allergique aux arachides, suit un traitement pour le diabète';
const ACTION_TARGET = 'marie.dupont@example.org';
const ACTION_SUMMARY = 'Envoyer le compte rendu médical à Marie';

function metadata(workspaceId: string, userId: string): EventMetadata {
  return {
    workspaceId,
    userId,
    causationId: 'c',
    correlationId: 'k',
    occurredAt: '2026-06-08T16:40:00.000Z',
  };
}

function message(text: string): Event {
  return {
    type: 'MessageRecorded',
    data: { messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text },
  };
}

describe('encryption of personal data at rest (DataKeyCipher)', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let owner: Client;
  const pools: Pool[] = [];
  /** The master key that wraps this database's data keys (changed by the rotation test). */
  let master = TEST_MASTER_KEY;

  function pool(url = database.appUrl): Pool {
    const created = new Pool({ connectionString: url, max: 4 });
    created.on('error', () => undefined);
    pools.push(created);
    return created;
  }

  /** A codec as one process has it: its own key store and cache. */
  function processCodec(master: Buffer = TEST_MASTER_KEY, options: KeyStoreOptions = {}) {
    const cipher = new DataKeyCipher(pool(), master, options);
    return { codec: new EventCodec(EVENT_CATALOG, cipher), keys: cipher.keys };
  }

  async function append(codec: EventCodec, ws: string, user: string, event: Event) {
    const eventId = randomUUID();
    const record = await codec.encode({ eventId, event, metadata: metadata(ws, user) });
    await store.appendToStream(userStream(ws, user, 'enc', eventId), [record], {
      expectedRevision: 'no_stream',
    });
    const [stored] = await store.readStream(userStream(ws, user, 'enc', eventId));
    return stored!;
  }

  async function rawData(eventId: string): Promise<string> {
    const { rows } = await owner.query<{ data: string }>(
      'SELECT data::text AS data FROM events WHERE event_id = $1',
      [eventId],
    );
    return rows[0]!.data;
  }

  async function keyRows(ws: string) {
    const { rows } = await owner.query<{
      user_id: string;
      wrapped: boolean;
      key_version: number;
      destroyed: boolean;
    }>(
      `SELECT user_id, wrapped_key IS NOT NULL AS wrapped, key_version, destroyed_at IS NOT NULL AS destroyed
         FROM data_keys WHERE workspace_id = $1 ORDER BY user_id`,
      [ws],
    );
    return rows;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore({ connectionString: database.appUrl });
    owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
  });

  afterAll(async () => {
    await store.close();
    await owner.end();
    await Promise.all(pools.map((created) => created.end()));
    await database.drop();
  });

  it('needs ENGRAM_MASTER_KEY with DATABASE_URL', async () => {
    const config = loadConfig({
      DATABASE_URL: database.ownerUrl,
      ENGRAM_JWT_SECRET: 'x'.repeat(32),
    });
    const failure = prepareRuntime(config, () => undefined);
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow('ENGRAM_MASTER_KEY is required when DATABASE_URL is set');
  });

  it('stores no message text, memory content or action target in clear, and decodes them back', async () => {
    const { codec } = processCodec();
    const events: Event[] = [
      message(MESSAGE_TEXT),
      {
        type: 'MemoryCandidateDetected',
        data: {
          memoryId: 'm1',
          kind: 'fact',
          content: MEMORY_CONTENT,
          confidence: 0.9,
          sourceMessageId: 'msg1',
          sourceExcerpt: MEMORY_CONTENT.slice(0, 20),
          sessionId: 's1',
          generation: 0,
        },
      },
      {
        type: 'ActionProposed',
        data: {
          actionId: 'a1',
          tool: 'send_email',
          target: ACTION_TARGET,
          summary: ACTION_SUMMARY,
          input: { body: 'Résultats de la prise de sang' },
          channel: 'email',
          requiresConfirmation: true,
        },
      },
    ];
    const stored: RecordedEvent[] = [];
    for (const event of events) stored.push(await append(codec, 'w1', 'alice', event));

    const { rows } = await owner.query<{ data: string }>('SELECT data::text AS data FROM events');
    const everything = rows.map((row) => row.data).join('\n');
    for (const secret of [MESSAGE_TEXT, MEMORY_CONTENT, ACTION_TARGET, ACTION_SUMMARY]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toContain('prise de sang');
    expect(everything).not.toContain('"text"');

    const message0 = JSON.parse(await rawData(stored[0]!.eventId)) as Record<string, unknown>;
    // Non-personal data and routing stay in clear, the personal fields are in one envelope.
    expect(Object.keys(message0).sort()).toEqual(
      ['_sealed', 'channel', 'messageId', 'role', 'sessionId'].sort(),
    );
    expect(message0._sealed).toEqual({
      v: 1,
      iv: expect.any(String),
      tag: expect.any(String),
      ct: expect.any(String),
    });

    // Another process (fresh cache) reads them back.
    const reader = processCodec().codec;
    for (const [index, event] of events.entries()) {
      const decoded = await reader.decode(stored[index]!);
      expect(decoded.erased).toBe(false);
      expect(decoded.event).toEqual(event);
      expect(decoded.metadata).toEqual(metadata('w1', 'alice'));
    }
    expect(await keyRows('w1')).toEqual([
      { user_id: 'alice', wrapped: true, key_version: expect.any(Number), destroyed: false },
    ]);
  });

  it('stores an event with no personal field present as it is, without creating a key', async () => {
    const { codec } = processCodec();
    const approved: Event = {
      type: 'MemoryApproved',
      data: { memoryId: 'm1', by: { kind: 'policy' } },
    };
    const stored = await append(codec, 'w1', 'nokey', approved);
    expect(JSON.parse(await rawData(stored.eventId))).toEqual(approved.data);
    const noOptional: Event = { type: 'ActionExecuted', data: { actionId: 'a1' } };
    const plain = await append(codec, 'w1', 'nokey', noOptional);
    expect(JSON.parse(await rawData(plain.eventId))).toEqual({ actionId: 'a1' });
    expect(await codec.decode(plain)).toMatchObject({ event: noOptional, erased: false });
    expect((await keyRows('w1')).map((row) => row.user_id)).not.toContain('nokey');
  });

  it('a destroyed key: decode says erased with no personal fields, other users untouched', async () => {
    let clock = 1_000_000;
    const api = processCodec();
    const worker = processCodec(TEST_MASTER_KEY, { ttlMs: 5_000, now: () => clock });
    const dave = await append(api.codec, 'w3', 'dave', message('dave writes this'));
    const erin = await append(api.codec, 'w3', 'erin', message('erin writes that'));
    // The worker has dave's key in its cache.
    expect((await worker.codec.decode(dave)).erased).toBe(false);

    await api.keys.destroyKey('w3', 'dave');

    // The process that destroyed it never serves it again, not even from its cache.
    const here = await api.codec.decode(dave);
    expect(here.erased).toBe(true);
    expect(here.event.data).toEqual({
      messageId: expect.any(String),
      sessionId: 's1',
      role: 'user',
      channel: 'web',
    });
    expect(here.event.data).not.toHaveProperty('text');
    expect(here.event.data).not.toHaveProperty('_sealed');
    // Another process stops serving it once its cached key is older than the TTL.
    clock += 5_001;
    expect(await worker.codec.decode(dave)).toMatchObject({ erased: true });
    // A process that never had it in cache.
    expect(await processCodec().codec.decode(dave)).toMatchObject({ erased: true });

    const other = await processCodec().codec.decode(erin);
    expect(other).toMatchObject({ erased: false, event: { data: { text: 'erin writes that' } } });

    // The key is gone from the database: a tombstone stays, so no new key is ever made for dave.
    expect(await keyRows('w3')).toEqual([
      { user_id: 'dave', wrapped: false, key_version: expect.any(Number), destroyed: true },
      { user_id: 'erin', wrapped: true, key_version: expect.any(Number), destroyed: false },
    ]);
    await expect(append(api.codec, 'w3', 'dave', message('again'))).rejects.toBeInstanceOf(
      DataKeyDestroyedError,
    );
    await expect(
      append(api.codec, 'w3', 'dave', {
        type: 'MemoryApproved',
        data: { memoryId: 'm', by: { kind: 'policy' } },
      }),
    ).resolves.toMatchObject({ type: 'MemoryApproved' });
    // Destroying again, or the key of someone who never had one, is fine.
    await api.keys.destroyKey('w3', 'dave');
    await api.keys.destroyKey('w3', 'nobody');
    await expect(append(api.codec, 'w3', 'nobody', message('hi'))).rejects.toBeInstanceOf(
      DataKeyDestroyedError,
    );
  });

  it('an open that fails with a cached key asks the database again (destroyed elsewhere)', async () => {
    const worker = processCodec(TEST_MASTER_KEY, { ttlMs: 60_000 });
    const frank = await append(worker.codec, 'w4', 'frank', message('frank'));
    expect((await worker.codec.decode(frank)).erased).toBe(false);
    await processCodec().keys.destroyKey('w4', 'frank');
    // Within the TTL the worker still has the key; a payload sealed with a newer key would fail to open
    // and make it look again. Simulate by tampering: the re-check finds the key destroyed.
    const tampered = {
      ...frank,
      data: {
        ...frank.data,
        _sealed: { ...(frank.data._sealed as object), tag: 'AAAAAAAAAAAAAAAAAAAAAA==' },
      },
    };
    expect(await worker.codec.decode(tampered)).toMatchObject({ erased: true });
  });

  it('a page decoded together (decodeAll) is what decode gives each event, one key lookup per owner', async () => {
    const writer = processCodec();
    const ivy1 = await append(writer.codec, 'w9', 'ivy', message('ivy one'));
    const jack = await append(writer.codec, 'w9', 'jack', message('jack'));
    const plain = await append(writer.codec, 'w9', 'ivy', {
      type: 'ActionExecuted',
      data: { actionId: 'a1' },
    });
    const ivy2 = await append(writer.codec, 'w9', 'ivy', message('ivy two'));
    await writer.keys.destroyKey('w9', 'jack');
    const page = [ivy1, jack, plain, ivy2];

    const reader = processCodec();
    const lookups = jest.spyOn(reader.keys, 'keyForReading');
    const together = await reader.codec.decodeAll(page);
    // ivy's and jack's keys, once each, however many of their events the page holds.
    expect(lookups.mock.calls.map(([, user]) => user)).toEqual(['ivy', 'jack']);
    const oneByOne = processCodec().codec;
    expect(together).toEqual(await Promise.all(page.map((event) => oneByOne.decode(event))));
    expect(
      together.map((event) => [event.erased, (event.event.data as { text?: string }).text]),
    ).toEqual([
      [false, 'ivy one'],
      [true, undefined],
      [false, undefined],
      [false, 'ivy two'],
    ]);

    // An event that does not open fails the page, as it fails decode.
    const tampered = {
      ...ivy2,
      data: {
        ...ivy2.data,
        _sealed: { ...(ivy2.data._sealed as object), tag: 'AAAAAAAAAAAAAAAAAAAAAA==' },
      },
    };
    await expect(reader.codec.decodeAll([ivy1, tampered])).rejects.toBeInstanceOf(
      SealedPayloadError,
    );
  });

  it('the event id is authenticated: a sealed blob moved to another event does not open', async () => {
    const { codec } = processCodec();
    const first = await append(codec, 'w1', 'grace', message('first secret'));
    const second = await append(codec, 'w1', 'grace', message('second secret'));
    await owner.query(
      `UPDATE events SET data = jsonb_set(data, '{_sealed}',
         (SELECT data->'_sealed' FROM events WHERE event_id = $1))
        WHERE event_id = $2`,
      [first.eventId, second.eventId],
    );
    const [moved] = await store.readStream(second.streamId);
    await expect(processCodec().codec.decode(moved!)).rejects.toBeInstanceOf(SealedPayloadError);
    // To another user's event: their key does not open it either.
    const henry = await append(codec, 'w1', 'henry', message('henry'));
    await owner.query(
      `UPDATE events SET data = jsonb_set(data, '{_sealed}',
         (SELECT data->'_sealed' FROM events WHERE event_id = $1))
        WHERE event_id = $2`,
      [first.eventId, henry.eventId],
    );
    const [stolen] = await store.readStream(henry.streamId);
    await expect(processCodec().codec.decode(stolen!)).rejects.toBeInstanceOf(SealedPayloadError);
    // The untouched one still opens.
    expect(await codec.decode(first)).toMatchObject({ event: { data: { text: 'first secret' } } });
  });

  it('two processes using a new key at once end up with one key', async () => {
    const a = processCodec();
    const b = processCodec();
    const appended = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        append(index % 2 === 0 ? a.codec : b.codec, 'w5', 'ivy', message(`ivy ${index}`)),
      ),
    );
    expect(await keyRows('w5')).toHaveLength(1);
    const [keyOfA, keyOfB] = await Promise.all([
      a.keys.keyForWriting('w5', 'ivy'),
      b.keys.keyForWriting('w5', 'ivy'),
    ]);
    expect(keyOfA.equals(keyOfB)).toBe(true);
    const reader = processCodec().codec;
    const texts = await Promise.all(
      appended.map(async (event) => (await reader.decode(event)).event.data),
    );
    expect(texts.map((data) => (data as { text: string }).text).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `ivy ${index}`).sort(),
    );
  });

  it('the projector role reads keys (decoding) but cannot create or destroy them', async () => {
    const projectorCipher = new DataKeyCipher(pool(database.projectorUrl), TEST_MASTER_KEY);
    const projectorCodec = new EventCodec(EVENT_CATALOG, projectorCipher);
    const alice = await append(processCodec().codec, 'w1', 'alice', message('for the projector'));
    expect(await projectorCodec.decode(alice)).toMatchObject({
      event: { data: { text: 'for the projector' } },
    });
    await expect(projectorCipher.keys.keyForWriting('w1', 'newcomer')).rejects.toThrow(
      /permission denied/,
    );
    await expect(projectorCipher.keys.destroyKey('w1', 'alice')).rejects.toThrow(
      /permission denied/,
    );
  });

  // Last: it changes the master key of every data key in this database.
  it('master-key rotation re-wraps every key in one transaction, events untouched', async () => {
    const before = await owner.query<{ event_id: string; data: string }>(
      'SELECT event_id, data::text AS data FROM events ORDER BY global_position',
    );
    const keysBefore = await owner.query<{ user_id: string; wrapped_key: Buffer | null }>(
      'SELECT user_id, wrapped_key FROM data_keys ORDER BY workspace_id, user_id',
    );
    const alice = await append(processCodec().codec, 'w1', 'alice', message('before rotation'));
    const erin = (await store.readUserEvents('w3', 'erin'))[0]!;
    const newMaster = randomBytes(32);
    master = newMaster;
    const lines: string[] = [];
    const result = await rotateMasterKeyCommand(
      testRuntime(database),
      { newKey: newMaster.toString('base64'), help: false },
      { out: (text) => lines.push(text), err: (text) => lines.push(text) },
    );
    const liveKeys = keysBefore.rows.filter((row) => row.wrapped_key !== null).length;
    expect(result).toEqual({
      rewrapped: liveKeys,
      alreadyCurrent: 0,
      destroyed: keysBefore.rows.length - liveKeys,
    });
    expect(lines.join('')).toContain('Set ENGRAM_MASTER_KEY to the new key');
    expect(lines.join('')).not.toContain(newMaster.toString('base64'));

    // Events untouched; every live wrapped key changed; destroyed ones stay destroyed.
    const after = await owner.query<{ event_id: string; data: string }>(
      'SELECT event_id, data::text AS data FROM events ORDER BY global_position',
    );
    expect(after.rows.slice(0, before.rows.length)).toEqual(before.rows);
    const keysAfter = await owner.query<{ user_id: string; wrapped_key: Buffer | null }>(
      'SELECT user_id, wrapped_key FROM data_keys ORDER BY workspace_id, user_id',
    );
    for (const [index, row] of keysAfter.rows.entries()) {
      const old = keysBefore.rows[index]!;
      expect(row.user_id).toBe(old.user_id);
      if (old.wrapped_key === null) expect(row.wrapped_key).toBeNull();
      else expect(row.wrapped_key!.equals(old.wrapped_key)).toBe(false);
    }

    // Decodes with the new master key, not with the old one.
    const renewed = processCodec(newMaster).codec;
    expect(await renewed.decode(alice)).toMatchObject({
      erased: false,
      event: { data: { text: 'before rotation' } },
    });
    expect(await renewed.decode(erin)).toMatchObject({
      event: { data: { text: 'erin writes that' } },
    });
    await expect(processCodec(TEST_MASTER_KEY).codec.decode(alice)).rejects.toBeInstanceOf(
      WrongMasterKeyError,
    );
    // New keys are wrapped with the new master key.
    const newcomer = await append(renewed, 'w6', 'jules', message('after rotation'));
    expect(await processCodec(newMaster).codec.decode(newcomer)).toMatchObject({
      event: { data: { text: 'after rotation' } },
    });

    // A straggler process still on the old master key creates a key; running the rotation again
    // re-wraps just that one.
    await append(processCodec(TEST_MASTER_KEY).codec, 'w6', 'kim', message('straggler'));
    const again = await new KeyStore(pool(), TEST_MASTER_KEY).rewrapAll(TEST_MASTER_KEY, newMaster);
    expect(again).toMatchObject({ rewrapped: 1, alreadyCurrent: liveKeys + 1 });
    // A master key that wrapped nothing here aborts the whole rotation.
    await expect(
      new KeyStore(pool(), newMaster).rewrapAll(randomBytes(32), randomBytes(32)),
    ).rejects.toBeInstanceOf(WrongMasterKeyError);
    expect(
      await processCodec(newMaster).codec.decode((await store.readUserEvents('w6', 'kim'))[0]!),
    ).toMatchObject({ event: { data: { text: 'straggler' } } });
  });

  it('the embedded default keeps the rotated master key in its secrets file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-rotation-'));
    try {
      const { secrets } = loadOrCreateLocalSecrets(dataDir);
      // The database's keys are wrapped by `master`: the secrets file has it.
      saveLocalMasterKey(dataDir, master.toString('base64'));
      const current = master;
      const runtime = testRuntime(database, { ENGRAM_DATA_DIR: dataDir });
      const codec = processCodec(current).codec;
      const event = await append(codec, 'w7', 'lea', message('embedded'));
      const printed: string[] = [];
      await rotateMasterKeyCommand(
        { ...runtime, embedded: true, masterKey: current },
        { newKey: undefined, help: false },
        { out: (text) => printed.push(text), err: () => undefined },
      );
      const generated = printed.join('').trim();
      expect(Buffer.from(generated, 'base64')).toHaveLength(32);
      const saved = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
        masterKey: string;
        jwtSecret: string;
      };
      expect(saved).toMatchObject({ masterKey: generated, jwtSecret: secrets.jwtSecret });
      expect(
        await processCodec(Buffer.from(saved.masterKey, 'base64')).codec.decode(event),
      ).toMatchObject({ event: { data: { text: 'embedded' } } });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
