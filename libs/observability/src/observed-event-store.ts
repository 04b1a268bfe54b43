import type {
  AppendOptions,
  AppendResult,
  EventRecord,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  ReadUserEventsOptions,
  RecordedEvent,
  SubscribeOptions,
  UnparsedEvent,
} from '@engram/event-store';
import type { AppendObserver } from './append-metrics';

/**
 * The same store, reporting each append to an observer: the adapters stay free of metrics, and both
 * (PostgreSQL, EventStoreDB) are counted alike.
 */
export class ObservedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly observer: AppendObserver,
  ) {}

  get kind(): EventStore['kind'] {
    return this.inner.kind;
  }

  async appendToStream(
    streamId: string,
    events: readonly EventRecord[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    this.observer.appending?.(events);
    try {
      const result = await this.inner.appendToStream(streamId, events, options);
      this.observer.appended(events);
      return result;
    } catch (error) {
      this.observer.failed(error);
      throw error;
    }
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent> {
    return this.inner.subscribeToAll(options);
  }

  readUserEvents(
    workspaceId: string,
    userId: string,
    options?: Readonly<{ after?: bigint | 'start'; maxCount?: number }>,
  ): Promise<RecordedEvent[]> {
    return this.inner.readUserEvents(workspaceId, userId, options);
  }

  readUserEventsUnparsed(
    workspaceId: string,
    userId: string,
    options?: ReadUserEventsOptions,
  ): Promise<UnparsedEvent[]> {
    return this.inner.readUserEventsUnparsed(workspaceId, userId, options);
  }

  deleteStream(streamId: string): Promise<void> {
    return this.inner.deleteStream(streamId);
  }

  closeOwner(workspaceId: string, userId: string, keep: readonly string[]): Promise<void> {
    return this.inner.closeOwner(workspaceId, userId, keep);
  }

  /** Forwarded: the audit's "has this user a history" check waits this long on a lagging index. */
  get userIndexLagBoundMs(): number | undefined {
    return this.inner.userIndexLagBoundMs;
  }

  get closesOwnersAtomically(): boolean | undefined {
    return this.inner.closesOwnersAtomically;
  }

  get recognisesRetriesAnywhere(): boolean | undefined {
    return this.inner.recognisesRetriesAnywhere;
  }

  headPosition(): Promise<bigint> {
    return this.inner.headPosition();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
