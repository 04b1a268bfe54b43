import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OwnerKeys } from '@engram/crypto';
import type { EventCodec, RecordedEvent } from '@engram/event-store';
import type { RenderReply, RenderRequest } from './export-thread';
import { renderExportPage, type PageRenderer } from './user-export';

/** The render thread's script, built next to this file; absent when running from the TypeScript sources. */
export const EXPORT_THREAD_SCRIPT = join(__dirname, 'export-thread.js');

type Pending = Readonly<{
  page: readonly RecordedEvent[];
  resolve: (ndjson: Buffer) => void;
  reject: (error: Error) => void;
}>;

/**
 * A thread that decrypts and renders the export's pages (`export-thread.ts`) while the request's
 * thread reads the next ones and writes the response: an export uses a second core (its rate at 1M
 * events, +25 % measured, BENCHMARKS.md round 14). One per process, started at the first page,
 * shared by every export running; it holds no key of its own: each page goes with the keys this
 * process looked up for it (`keysOf`), so an erasure here is an erasure there. A page whose key does
 * not open it (a key destroyed and made again since it was cached) is rendered by `fallback` in this
 * thread, which asks the database for fresh keys, as every other read does. A thread that dies fails
 * the pages it held, and the next page starts another.
 */
export class ExportRenderThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    private readonly keysOf: (page: readonly RecordedEvent[]) => Promise<OwnerKeys>,
    private readonly fallback: PageRenderer,
    private readonly script = EXPORT_THREAD_SCRIPT,
  ) {}

  /** Whether the thread's script is built (the API falls back to rendering in its own thread). */
  static available(script = EXPORT_THREAD_SCRIPT): boolean {
    return existsSync(script);
  }

  readonly render: PageRenderer = async (page) => {
    const keys = await this.keysOf(page);
    // Copied into buffers of their own: a small Buffer is a view of a shared pool, all of which a
    // message would copy.
    const sent = keys.map(([owner, key]) => [owner, key && new Uint8Array(key)] as const);
    const id = (this.nextId += 1);
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { page, resolve, reject });
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
    else if (reply.keyDidNotOpen) this.fallback(pending.page).then(pending.resolve, pending.reject);
    else pending.reject(new Error(`the export render thread failed: ${reply.error}`));
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
 * A process's export renderer (the API's, `engram export`'s): its render thread when the thread's
 * script is built, else this thread (the tests running the TypeScript sources).
 */
export function exportRenderer(
  codec: EventCodec,
  keysOf: (page: readonly RecordedEvent[]) => Promise<OwnerKeys>,
  script = EXPORT_THREAD_SCRIPT,
): ExportRenderer {
  const inThisThread: PageRenderer = (page) => renderExportPage(codec, page);
  if (!ExportRenderThread.available(script)) {
    return { render: inThisThread, close: () => Promise.resolve() };
  }
  const thread = new ExportRenderThread(keysOf, inThisThread, script);
  return { render: thread.render, close: () => thread.close() };
}
