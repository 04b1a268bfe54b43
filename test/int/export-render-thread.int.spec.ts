import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG, userStream, type Event, type EventMetadata } from '@engram/domain';
import { EventCodec, PostgresEventStore, type RecordedEvent } from '@engram/event-store';
import {
  ExportRenderThread,
  exportRenderer,
  renderExportPage,
  writeUserExport,
  type PageRenderer,
} from '@engram/gdpr';
import { BUILT_EXPORT_THREAD } from '../support/built-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TEST_MASTER_KEY } from '../support/test-runtime';

const WS = 'w-export-thread';

function metadata(userId: string): EventMetadata {
  return {
    workspaceId: WS,
    userId,
    causationId: 'c',
    correlationId: 'k',
    occurredAt: '2026-06-08T16:40:00.000Z',
  };
}

const message = (text: string): Event => ({
  type: 'MessageRecorded',
  data: { messageId: randomUUID(), sessionId: 's1', role: 'user', channel: 'web', text },
});

/** The built render thread (the tests' global setup builds the server) beside this thread's rendering. */
describe('the export render thread (ExportRenderThread, built)', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: Pool;
  let cipher: DataKeyCipher;
  let codec: EventCodec;
  const threads: ExportRenderThread[] = [];
  const inThisThread: PageRenderer = (page) => renderExportPage(codec, page);

  function renderThread(keysOf = (page: readonly RecordedEvent[]) => cipher.keysOf(page)) {
    const fallbacks: number[] = [];
    const thread = new ExportRenderThread(
      keysOf,
      (page) => {
        fallbacks.push(page.length);
        return inThisThread(page);
      },
      BUILT_EXPORT_THREAD,
    );
    threads.push(thread);
    return { thread, fallbacks };
  }

  async function append(userId: string, event: Event): Promise<void> {
    const eventId = randomUUID();
    const record = await codec.encode({ eventId, event, metadata: metadata(userId) });
    await store.appendToStream(userStream(WS, userId, 'exp', eventId), [record], {
      expectedRevision: 'no_stream',
    });
  }

  async function exported(userId: string, render?: PageRenderer): Promise<string> {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const through = await store.headPosition();
    await writeUserExport({ store, codec, render }, WS, userId, { through, pageSize: 3 }, out);
    return Buffer.concat(chunks).toString('utf8');
  }

  beforeAll(async () => {
    expect(ExportRenderThread.available(BUILT_EXPORT_THREAD)).toBe(true);
    database = await createTestDatabase();
    store = new PostgresEventStore({ connectionString: database.appUrl });
    pool = new Pool({ connectionString: database.appUrl, max: 2 });
    cipher = new DataKeyCipher(pool, TEST_MASTER_KEY);
    codec = new EventCodec(EVENT_CATALOG, cipher);
    const texts = [
      'Réserve une table à 20 h, près de la gare 🚉',
      'ligne\nsuivante "citée" \\ \u2028',
      'x'.repeat(5000),
    ];
    for (let i = 0; i < 10; i += 1) await append('ana', message(`${texts[i % 3]} #${i}`));
    await append('ana', {
      type: 'MemoryApproved',
      data: { memoryId: 'm1', by: { kind: 'policy' } },
    });
    for (let i = 0; i < 4; i += 1) await append('bob', message(`bob ${i}`));
  });

  afterAll(async () => {
    await Promise.all(threads.map((thread) => thread.close()));
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('renders each page byte for byte as this thread does, and a whole export in order', async () => {
    const { thread, fallbacks } = renderThread();
    const page = await store.readUserEvents(WS, 'ana');
    expect(page).toHaveLength(11);
    expect((await thread.render(page)).equals(await inThisThread(page))).toBe(true);

    const here = await exported('ana');
    const lines = here.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      erased: false,
      data: { text: expect.stringContaining('ligne') },
    });
    // Pages of 3, two rendering while the next is read: the same bytes in the same order.
    expect(await exported('ana', thread.render)).toBe(here);
    expect(fallbacks).toEqual([]);
  });

  it('uses the keys its process gives: a key destroyed there renders erased lines at once', async () => {
    const { thread } = renderThread();
    const before = await thread.render(await store.readUserEvents(WS, 'bob'));
    expect(before.toString()).toContain('bob 0');

    await cipher.keys.destroyKey(WS, 'bob');

    const after = (await thread.render(await store.readUserEvents(WS, 'bob'))).toString();
    const lines = after
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { erased: boolean; data: object });
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.erased).toBe(true);
      expect(line.data).not.toHaveProperty('text');
      expect(line.data).not.toHaveProperty('_sealed');
    }
    expect(after).toBe((await inThisThread(await store.readUserEvents(WS, 'bob'))).toString());
  });

  it('a page its given key does not open is rendered here, by the fallback, with fresh keys', async () => {
    const { thread, fallbacks } = renderThread(async (page) =>
      (await cipher.keysOf(page)).map(([owner]) => [owner, randomBytes(32)] as const),
    );
    const page = await store.readUserEvents(WS, 'ana');
    expect((await thread.render(page)).equals(await inThisThread(page))).toBe(true);
    expect(fallbacks).toEqual([11]);
  });

  it('a page it cannot render fails with the reason; the thread renders the next one', async () => {
    const { thread } = renderThread();
    const [first] = await store.readUserEvents(WS, 'ana', { maxCount: 1 });
    await expect(thread.render([{ ...first!, type: 'NoSuchEvent' }])).rejects.toThrow(
      /export render thread failed: .*NoSuchEvent/,
    );
    await expect(thread.render([first!])).resolves.toBeInstanceOf(Buffer);
  });

  it('stopped, it fails the pages it held; a page after that starts another thread', async () => {
    let closing: Promise<void> | undefined;
    const { thread } = renderThread(async (page) => {
      const keys = await cipher.keysOf(page);
      // Stopped just after the first page is sent, long before a page this size is rendered.
      if (!closing) {
        setImmediate(() => {
          closing = thread.close();
        });
      }
      return keys;
    });
    const page = await store.readUserEvents(WS, 'ana');
    const large = Array.from({ length: 300 }, () => page).flat();
    await expect(thread.render(large)).rejects.toThrow(/stopped/);
    await closing;
    expect((await thread.render(page)).equals(await inThisThread(page))).toBe(true);
  });

  it('a process whose thread script is not built renders on its own thread', async () => {
    const renderer = exportRenderer(
      codec,
      (page) => cipher.keysOf(page),
      `${BUILT_EXPORT_THREAD}.absent`,
    );
    const page = await store.readUserEvents(WS, 'ana');
    expect((await renderer.render(page)).equals(await inThisThread(page))).toBe(true);
    await renderer.close();
    const built = exportRenderer(codec, (p) => cipher.keysOf(p), BUILT_EXPORT_THREAD);
    expect((await built.render(page)).equals(await inThisThread(page))).toBe(true);
    await built.close();
  });
});
