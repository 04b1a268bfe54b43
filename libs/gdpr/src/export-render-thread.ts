import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { KeyOwner, OwnerKeys } from '@engram/crypto';
import type { EventCodec, UnparsedEvent } from '@engram/event-store';
import type { RenderReply, RenderRequest } from './export-thread';
import { renderExportPage, type PageRenderer } from './user-export';

/** The render thread's script, built next to this file; absent when running from the TypeScript sources. */
export const EXPORT_THREAD_SCRIPT = join(__dirname, 'export-thread.js');

type Pending = Readonly<{
  page: readonly UnparsedEvent[];
  owner: KeyOwner;
  resolve: (ndjson: Buffer) => void;
  reject: (error: Error) => void;
}>;

/**
 * A thread that decrypts and renders the export's pages (`export-thread.ts`) while the request's
 * thread reads the next ones and writes the response: an export uses a second core (its rate at 1M
 * events, +25 % measured, BENCHMARKS.md round 14). A process has `EXPORT_RENDER_THREADS`
 * (`exportRenderer`), each started at its first page, shared by every export running. It holds no
 * key of its own: each page goes with the key this process looked up for its owner (`keysOf`), so
 * an erasure here is an erasure there. A page that key does not open (a key destroyed and made again
 * since it was cached, an event sealed for someone else) is rendered by `fallback` in this thread,
 * which asks the database for fresh keys, as every other read does. A thread that dies fails the
 * pages it held, and the next page starts another.
 */
export class ExportRenderThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    private readonly keysOf: (owners: readonly KeyOwner[]) => Promise<OwnerKeys>,
    private readonly fallback: PageRenderer,
    private readonly script = EXPORT_THREAD_SCRIPT,
  ) {}

  /** Whether the thread's script is built (the API falls back to rendering in its own thread). */
  static available(script = EXPORT_THREAD_SCRIPT): boolean {
    return existsSync(script);
  }

  readonly render: PageRenderer = async (page, owner) => {
    const keys = await this.keysOf([owner]);
    // Copied into buffers of their own: a small Buffer is a view of a shared pool, all of which a
    // message would copy.
    const sent = keys.map(([owner, key]) => [owner, key && new Uint8Array(key)] as const);
    const id = (this.nextId += 1);
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { page, owner, resolve, reject });
      this.started().postMessage({ id, page, keys: sent } satisfies RenderRequest);
    });
  };

  /** Stops the thread; the pages it held fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the export render thread was stopped'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    // Idle, it does not keep the process alive; `close` ends it on shutdown.
    worker.unref();
    worker.on('message', (reply: RenderReply) => this.settle(reply));
    worker.on('error', (error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(`the export render thread exited (code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: RenderReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if ('ndjson' in reply) pending.resolve(Buffer.from(reply.ndjson));
    else if (reply.keyDidNotOpen) {
      this.fallback(pending.page, pending.owner).then(pending.resolve, pending.reject);
    } else pending.reject(new Error(`the export render thread failed: ${reply.error}`));
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of pending) reject(error);
  }
}

/** How a process renders its exports, and what stops it. */
export type ExportRenderer = Readonly<{ render: PageRenderer; close: () => Promise<void> }>;

/**
 * Render threads per process. With the pages read as text, the request's thread has time to spare
 * and one render thread is the export's bound; two, taking pages in turn, keep both cores of the
 * machine measured busy (BENCHMARKS.md, round 15).
 */
export const EXPORT_RENDER_THREADS = 2;

/**
 * A process's export renderer (the API's, `engram export`'s): its render threads, pages handed to
 * them in turn, when the thread's script is built; else this thread (the tests running the
 * TypeScript sources).
 */
export function exportRenderer(
  codec: EventCodec,
  keysOf: (owners: readonly KeyOwner[]) => Promise<OwnerKeys>,
  script = EXPORT_THREAD_SCRIPT,
  threads = EXPORT_RENDER_THREADS,
): ExportRenderer {
  const inThisThread: PageRenderer = (page) => renderExportPage(codec, page);
  if (!ExportRenderThread.available(script)) {
    return { render: inThisThread, close: () => Promise.resolve() };
  }
  const started = Array.from(
    { length: threads },
    () => new ExportRenderThread(keysOf, inThisThread, script),
  );
  let turn = 0;
  return {
    render: (page, owner) => started[(turn += 1) % started.length]!.render(page, owner),
    close: async () => {
      await Promise.all(started.map((thread) => thread.close()));
    },
  };
}
