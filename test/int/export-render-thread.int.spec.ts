import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Pool } from 'pg';
import { DataKeyCipher, type KeyOwner } from '@engram/crypto';
import { EVENT_CATALOG, userStream, type Event, type EventMetadata } from '@engram/domain';
import { EventCodec, PostgresEventStore, type UnparsedEvent } from '@engram/event-store';
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
  const inThisThread = (page: readonly UnparsedEvent[]) => renderExportPage(codec, page);
  const owner = (userId: string): KeyOwner => ({ workspaceId: WS, userId });
  const pageOf = (userId: string, maxCount?: number) =>
    store.readUserEventsUnparsed(WS, userId, { maxCount });

  function renderThread(keysOf = (owners: readonly KeyOwner[]) => cipher.keysOf(owners)) {
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

  /** In `userId`'s history; sealed for `sealedFor` (another owner: an event no export should meet). */
  async function append(userId: string, event: Event, sealedFor = userId): Promise<void> {
    const eventId = randomUUID();
    const record = await codec.encode({ eventId, event, metadata: metadata(sealedFor) });
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
    await append('cy', message('cy 0'));
    await append('cy', message('sealed for dan'), 'dan');
  });

  afterAll(async () => {
    await Promise.all(threads.map((thread) => thread.close()));
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('renders each page byte for byte as this thread does, and a whole export in order', async () => {
    const { thread, fallbacks } = renderThread();
    const page = await pageOf('ana');
    expect(page).toHaveLength(11);
    expect(typeof page[0]!.data).toBe('string');
    expect((await thread.render(page, owner('ana'))).equals(await inThisThread(page))).toBe(true);

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
    const before = await thread.render(await pageOf('bob'), owner('bob'));
    expect(before.toString()).toContain('bob 0');

    await cipher.keys.destroyKey(WS, 'bob');

    const after = (await thread.render(await pageOf('bob'), owner('bob'))).toString();
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
    expect(after).toBe((await inThisThread(await pageOf('bob'))).toString());
  });

  it('a page its given key does not open is rendered here, by the fallback, with fresh keys', async () => {
    const { thread, fallbacks } = renderThread(async (owners) =>
      (await cipher.keysOf(owners)).map(([id]) => [id, randomBytes(32)] as const),
    );
    const page = await pageOf('ana');
    expect((await thread.render(page, owner('ana'))).equals(await inThisThread(page))).toBe(true);
    expect(fallbacks).toEqual([11]);
  });

  it("an event sealed for another owner than the page's is rendered here too, with that owner's key", async () => {
    const { thread, fallbacks } = renderThread();
    const page = await pageOf('cy');
    const rendered = (await thread.render(page, owner('cy'))).toString();
    expect(rendered).toContain('sealed for dan');
    expect(rendered).toBe((await inThisThread(page)).toString());
    expect(fallbacks).toEqual([2]);
  });

  it('a page it cannot render fails with the reason; the thread renders the next one', async () => {
    const { thread } = renderThread();
    const [first] = await pageOf('ana', 1);
    await expect(thread.render([{ ...first!, type: 'NoSuchEvent' }], owner('ana'))).rejects.toThrow(
      /export render thread failed: .*NoSuchEvent/,
    );
    await expect(thread.render([first!], owner('ana'))).resolves.toBeInstanceOf(Buffer);
  });

  it('stopped, it fails the pages it held; a page after that starts another thread', async () => {
    let closing: Promise<void> | undefined;
    const { thread } = renderThread(async (owners) => {
      const keys = await cipher.keysOf(owners);
      // Stopped just after the first page is sent, long before a page this size is rendered.
      if (!closing) {
        setImmediate(() => {
          closing = thread.close();
        });
      }
      return keys;
    });
    const page = await pageOf('ana');
    const large = Array.from({ length: 300 }, () => page).flat();
    await expect(thread.render(large, owner('ana'))).rejects.toThrow(/stopped/);
    await closing;
    expect((await thread.render(page, owner('ana'))).equals(await inThisThread(page))).toBe(true);
  });

  it('a process whose thread script is not built renders on its own thread; built, on its threads in turn', async () => {
    const keysOf = (owners: readonly KeyOwner[]) => cipher.keysOf(owners);
    const renderer = exportRenderer(codec, keysOf, `${BUILT_EXPORT_THREAD}.absent`);
    const page = await pageOf('ana');
    const here = await inThisThread(page);
    expect((await renderer.render(page, owner('ana'))).equals(here)).toBe(true);
    await renderer.close();
    const built = exportRenderer(codec, keysOf, BUILT_EXPORT_THREAD);
    expect((await built.render(page, owner('ana'))).equals(here)).toBe(true);
    // Its pages go to its threads in turn, several in flight, and are written in order.
    expect(await exported('ana', built.render)).toBe(await exported('ana'));
    await built.close();
  });
});
