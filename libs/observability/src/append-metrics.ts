import { Counter, type Registry } from 'prom-client';
import {
  DuplicateEventIdError,
  StreamDeletedError,
  WrongExpectedVersionError,
  type EventRecord,
} from '@engram/event-store';

export type AppendErrorKind = 'conflict' | 'duplicate' | 'stream_deleted' | 'other';

export function appendErrorKind(error: unknown): AppendErrorKind {
  if (error instanceof WrongExpectedVersionError) return 'conflict';
  if (error instanceof DuplicateEventIdError) return 'duplicate';
  if (error instanceof StreamDeletedError) return 'stream_deleted';
  return 'other';
}

/** What the event store reports to the metrics: acknowledged appends and failed ones. */
export interface AppendObserver {
  /** Before the append is sent: a reader of the log may see these events before it returns. */
  appending?(events: readonly EventRecord[]): void;
  appended(events: readonly EventRecord[]): void;
  failed(error: unknown): void;
  /** An event in a stream named like Engram's whose body is not Engram's, skipped by a read. */
  foreignEventSkipped?(): void;
}

/** Counters of the appends of this process (API commands and, in the same process, the worker's). */
export class AppendMetrics implements AppendObserver {
  private readonly appends: Counter<never>;
  private readonly events: Counter<'type'>;
  private readonly errors: Counter<'kind'>;
  private readonly foreign: Counter<never>;

  constructor(registry: Registry) {
    this.appends = new Counter({
      name: 'engram_event_appends_total',
      help: 'Acknowledged appends (one per stream transaction, idempotent retries included)',
      registers: [registry],
    });
    this.events = new Counter({
      name: 'engram_events_appended_total',
      help: 'Events in acknowledged appends, by event type',
      labelNames: ['type'],
      registers: [registry],
    });
    this.errors = new Counter({
      name: 'engram_append_errors_total',
      help: 'Refused or failed appends, by kind (conflict, duplicate, stream_deleted, other)',
      labelNames: ['kind'],
      registers: [registry],
    });
    this.foreign = new Counter({
      name: 'engram_foreign_events_skipped_total',
      help:
        'Events skipped by reads over many streams (readAll, subscriptions, per-user reads) because a ' +
        "stream named like Engram's held a body Engram did not write (another tool on a shared EventStoreDB)",
      registers: [registry],
    });
    for (const kind of ['conflict', 'duplicate', 'stream_deleted', 'other'] as const) {
      this.errors.inc({ kind }, 0);
    }
  }

  appended(events: readonly EventRecord[]): void {
    this.appends.inc();
    for (const event of events) this.events.inc({ type: event.type });
  }

  failed(error: unknown): void {
    this.errors.inc({ kind: appendErrorKind(error) });
  }

  foreignEventSkipped(): void {
    this.foreign.inc();
  }
}
