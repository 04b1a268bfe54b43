import { setTimeout as sleep } from 'node:timers/promises';
import {
  StreamDeletedError,
  batched,
  type DecodedEvent,
  type EventCodec,
  type EventStore,
  type RecordedEvent,
} from '@engram/event-store';
import {
  ensureCheckpoint,
  readCheckpoint,
  writeCheckpoint,
  type SharedEventFeed,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import type { Reactor } from './reactor';

export type ReactorRunnerDependencies = Readonly<{
  store: EventStore;
  codec: EventCodec;
  /** Projector-role data source: checkpoints and read models. */
  dataSource: DataSource;
  /** The worker's feed, shared with its projection runners (one read and one decode per event). */
  feed?: SharedEventFeed;
  onError?: (reactor: string, error: unknown) => void;
}>;

const BATCH_SIZE = 200;

/**
 * Feeds a process manager the events it handles, in order, from its checkpoint (`reactor:<name>` in
 * projection_checkpoints). An event whose reaction fails is tried again (with backoff) before any later
 * one, so nothing is skipped while the LLM or the database is down; the checkpoint moves after each
 * successful reaction. In a worker the events come from its shared feed, read and decoded once for
 * its projection runners and its reactors.
 */
export class ReactorRunner {
  private readonly handled: ReadonlySet<string>;
  private readonly checkpointName: string;

  constructor(
    private readonly deps: ReactorRunnerDependencies,
    readonly reactor: Reactor,
    private readonly options: Readonly<{ retryMs?: number; maxRetryMs?: number }> = {},
  ) {
    this.handled = new Set(reactor.handles);
    this.checkpointName = `reactor:${reactor.name}`;
  }

  async run(signal: AbortSignal): Promise<void> {
    await ensureCheckpoint(this.deps.dataSource.manager, this.checkpointName);
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.follow(signal);
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        this.deps.onError?.(this.reactor.name, error);
        const base = this.options.retryMs ?? 500;
        const wait = Math.min(
          base * 2 ** Math.min(failures - 1, 10),
          this.options.maxRetryMs ?? 30_000,
        );
        await sleep(wait, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /** Reacts to what is in the store now, then returns (tests, CLI). */
  async catchUp(): Promise<void> {
    await ensureCheckpoint(this.deps.dataSource.manager, this.checkpointName);
    for (;;) {
      const after = await readCheckpoint(this.deps.dataSource.manager, this.checkpointName);
      const events = await this.deps.store.readAll({ after, maxCount: BATCH_SIZE });
      if (events.length === 0) return;
      await this.reactTo(events);
    }
  }

  private async follow(signal: AbortSignal): Promise<void> {
    let after = await readCheckpoint(this.deps.dataSource.manager, this.checkpointName);
    const feed = this.deps.feed;
    if (!feed) return this.subscribe(after, signal);
    while (!signal.aborted) {
      const events = await feed.follow(after, signal, BATCH_SIZE);
      if (events.length === 0) continue;
      await this.reactTo(events, signal);
      after = events.at(-1)!.globalPosition;
    }
  }

  private async subscribe(after: bigint, signal: AbortSignal): Promise<void> {
    const local = new AbortController();
    try {
      const events = this.deps.store.subscribeToAll({
        after,
        signal: AbortSignal.any([signal, local.signal]),
      });
      for await (const batch of batched(events, BATCH_SIZE, 5)) await this.reactTo(batch, signal);
    } finally {
      local.abort();
    }
  }

  /** Events of an erased user (unreadable payload, deleted streams) are left alone. */
  private async reactToOne(event: RecordedEvent, signal?: AbortSignal): Promise<void> {
    const decoded = await this.decode(event);
    if (decoded.erased) return;
    try {
      await this.reactor.react(decoded, signal);
    } catch (error) {
      if (error instanceof StreamDeletedError) return;
      throw error;
    }
  }

  private decode(event: RecordedEvent): Promise<DecodedEvent> {
    return this.deps.feed ? this.deps.feed.decode(event) : this.deps.codec.decode(event);
  }

  private async reactTo(events: readonly RecordedEvent[], signal?: AbortSignal): Promise<void> {
    let reached: bigint | undefined;
    try {
      for (const event of events) {
        if (signal?.aborted) break;
        if (this.handled.has(event.type)) await this.reactToOne(event, signal);
        reached = event.globalPosition;
      }
    } finally {
      if (reached !== undefined) {
        await writeCheckpoint(this.deps.dataSource.manager, this.checkpointName, reached);
      }
    }
  }
}
