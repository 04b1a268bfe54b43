import { Client, type ClientConfig } from 'pg';
import { EVENTS_NOTIFY_CHANNEL } from './schema';

/**
 * Wakes subscribers when events are appended: one LISTEN connection per store, shared by all waiters.
 * A notification can be lost (connection drop, restart), so every wait also ends after `pollMs`.
 */
export class AppendNotifier {
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private waiters = new Set<() => void>();
  private closed = false;
  private notifications = 0;

  constructor(
    private readonly config: ClientConfig,
    private readonly pollMs: number,
  ) {}

  /** A counter of notifications seen; take it before reading so a wake-up during the read is not lost. */
  get generation(): number {
    return this.notifications;
  }

  async waitForAppend(sinceGeneration: number, signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted) return;
    await this.ensureListening().catch(() => undefined);
    if (this.notifications !== sinceGeneration) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.pollMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private ensureListening(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.listen().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async listen(): Promise<void> {
    const client = new Client(this.config);
    const drop = () => {
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', () => {
      this.notifications += 1;
      for (const wake of [...this.waiters]) wake();
    });
    await client.connect();
    await client.query(`LISTEN ${EVENTS_NOTIFY_CHANNEL}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
  }
}
