import type { Pool, PoolClient, PoolConfig, QueryResultRow } from 'pg';
import { createResilientPool } from './resilient-pool';
import { StreamNotFoundError } from '../errors';
import type {
  AppendOptions,
  AppendResult,
  EventRecord,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  UnparsedEvent,
} from '../event-store.port';
import { AppendNotifier } from './append-notifier';
import {
  EVENT_COLUMNS,
  UNPARSED_EVENT_COLUMNS,
  filterConditions,
  positionAfter,
  toRecordedEvent,
  type EventRow,
  type UnparsedEventRow,
} from './event-rows';
import { GroupCommitter } from './group-commit';
import { statementName } from './statement-names';

export type PostgresEventStoreOptions = Readonly<{
  connectionString: string;
  poolSize?: number;
  /** Longest a subscriber waits when a notification is lost. */
  pollMs?: number;
  subscriptionBatchSize?: number;
  applicationName?: string;
}>;

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private readonly notifier: AppendNotifier;
  private readonly committer: GroupCommitter;
  private readonly batchSize: number;

  constructor(options: PostgresEventStoreOptions) {
    const config: PoolConfig = {
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? 'engram-event-store',
    };
    this.pool = createResilientPool(config);
    this.notifier = new AppendNotifier(config, options.pollMs ?? 500);
    this.committer = new GroupCommitter(this.pool);
    this.batchSize = options.subscriptionBatchSize ?? 2000;
  }

  appendToStream(
    streamId: string,
    events: readonly EventRecord[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const normalized = events.map((event) => ({ ...event, eventId: event.eventId.toLowerCase() }));
    if (new Set(normalized.map((e) => e.eventId)).size !== normalized.length) {
      return Promise.reject(new Error(`Append to ${streamId}: the same event id appears twice`));
    }
    return this.committer.append({
      streamId,
      events: normalized,
      expectedRevision: options.expectedRevision,
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const params: unknown[] = [streamId];
    let condition = '';
    const from = options.fromRevision;
    if (typeof from === 'bigint') {
      params.push(from.toString());
      condition = `AND stream_revision ${backwards ? '<=' : '>='} $2`;
    }
    params.push(options.maxCount ?? null);
    // One statement: the stream's state and its events from the same snapshot, in one round trip.
    const result = await this.prepared<EventRow>(
      `SELECT e.*
         FROM event_streams s
         LEFT JOIN LATERAL (
           SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = s.stream_id ${condition}
            ORDER BY stream_revision ${backwards ? 'DESC' : 'ASC'} LIMIT $${params.length}
         ) e ON true
        WHERE s.stream_id = $1`,
      params,
    );
    const first = result.rows[0];
    if (!first) throw new StreamNotFoundError(streamId);
    if (first.event_id === null) return [];
    return result.rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const params: unknown[] = [positionAfter(options.after)];
    const conditions = ['global_position > $1', ...filterConditions(options.filter, params)];
    params.push(options.maxCount ?? null);
    const result = await this.prepared<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE ${conditions.join(' AND ')}
       ORDER BY global_position LIMIT $${params.length}`,
      params,
    );
    return result.rows.map(toRecordedEvent);
  }

  async *subscribeToAll(options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    let after = options.after === undefined || options.after === 'start' ? 0n : options.after;
    const { signal } = options;
    while (!signal?.aborted) {
      const generation = this.notifier.generation;
      // With a filter, how far the scan went is the head read before it (positions are handed out
      // under the head lock and committed in order, so every event up to it is visible). Without one,
      // the last event read says it: a statement less at every append a follower is woken for.
      const head = options.filter ? await this.headPosition() : undefined;
      const events = await this.readAll({
        after,
        maxCount: this.batchSize,
        filter: options.filter,
      });
      for (const event of events) {
        if (signal?.aborted) return;
        yield event;
      }
      if (events.length === this.batchSize) {
        after = events[events.length - 1]!.globalPosition;
        continue;
      }
      // Everything up to `head` was scanned, even what the filter left out.
      const lastSeen = events.at(-1)?.globalPosition ?? after;
      after = head !== undefined && head > lastSeen ? head : lastSeen;
      await this.notifier.waitForAppend(generation, signal);
    }
  }

  async readUserEvents(
    workspaceId: string,
    userId: string,
    options: Readonly<{ after?: bigint | 'start'; maxCount?: number }> = {},
  ): Promise<RecordedEvent[]> {
    const result = await this.prepared<EventRow>(
      userEventsQuery(EVENT_COLUMNS),
      userEventsParams(workspaceId, userId, options),
    );
    return result.rows.map(toRecordedEvent);
  }

  /** The JSON as PostgreSQL prints it (jsonb's text), which pg then leaves unparsed. */
  async readUserEventsUnparsed(
    workspaceId: string,
    userId: string,
    options: Readonly<{ after?: bigint | 'start'; maxCount?: number }> = {},
  ): Promise<UnparsedEvent[]> {
    const result = await this.prepared<UnparsedEventRow>(
      userEventsQuery(UNPARSED_EVENT_COLUMNS),
      userEventsParams(workspaceId, userId, options),
    );
    return result.rows.map(toRecordedEvent);
  }

  /**
   * The stream's events and its row go; what stays is a tombstone without its name (the SHA-256 of
   * it, `deleted_streams`), enough to refuse later appends. Under the head lock, so that no append
   * can land between the deletion and the tombstone.
   */
  async deleteStream(streamId: string): Promise<void> {
    await this.underHeadLock(async (client) => {
      await client.query(
        `INSERT INTO deleted_streams (stream_digest) VALUES (sha256(convert_to($1, 'UTF8')))
         ON CONFLICT DO NOTHING`,
        [streamId],
      );
      await client.query('DELETE FROM events WHERE stream_id = $1', [streamId]);
      await client.query('DELETE FROM event_streams WHERE stream_id = $1', [streamId]);
    });
  }

  readonly closesOwnersAtomically = true;
  readonly recognisesRetriesAnywhere = true;

  /** Under the head lock, like a deletion: an append either lands before the closing or sees it. */
  async closeOwner(workspaceId: string, userId: string, keep: readonly string[]): Promise<void> {
    await this.underHeadLock((client) =>
      client.query(
        `INSERT INTO closed_owners (workspace_id, user_id, keep_prefixes) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [workspaceId, userId, [...keep]],
      ),
    );
  }

  /** `work` in one transaction holding the head lock: no append runs meanwhile. */
  private async underHeadLock(work: (client: PoolClient) => Promise<unknown>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT position FROM event_store_head FOR UPDATE');
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async headPosition(): Promise<bigint> {
    const result = await this.prepared<{ position: string }>(
      'SELECT position FROM event_store_head',
      [],
    );
    return BigInt(result.rows[0]?.position ?? '0');
  }

  /**
   * A read whose text is the code's own (values only as parameters) as a named prepared statement:
   * planned once per connection. The workers read the log and streams at every append; unnamed,
   * those reads were planned each time (pg_stat_statements: planning as long as execution).
   */
  private prepared<Row extends QueryResultRow>(text: string, values: unknown[]) {
    return this.pool.query<Row>({ name: statementName(text), text, values });
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM event_store_head');
  }

  async close(): Promise<void> {
    await this.notifier.close();
    await this.pool.end();
  }
}

/** A page of one user's events, by the owner index. */
function userEventsQuery(columns: string): string {
  return `SELECT ${columns} FROM events
    WHERE owner_workspace_id = $1 AND owner_user_id = $2 AND global_position > $3
    ORDER BY global_position LIMIT $4`;
}

function userEventsParams(
  workspaceId: string,
  userId: string,
  options: Readonly<{ after?: bigint | 'start'; maxCount?: number }>,
): unknown[] {
  return [workspaceId, userId, positionAfter(options.after), options.maxCount ?? null];
}
