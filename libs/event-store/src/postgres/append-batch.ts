import type { PoolClient } from 'pg';
import { parseStreamName } from '@engram/domain';
import { DuplicateEventIdError, StreamDeletedError, WrongExpectedVersionError } from '../errors';
import type { AppendResult, EventRecord, ExpectedRevision } from '../event-store.port';
import { EVENTS_NOTIFY_CHANNEL } from './schema';

export type AppendRequest = {
  streamId: string;
  events: readonly EventRecord[];
  expectedRevision: ExpectedRevision;
};

export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: Error };

type StreamState = { revision: bigint | 'no_stream'; deleted: boolean };
type StoredEventRef = { streamId: string; revision: bigint; position: bigint };

/**
 * Writes many append requests in one transaction (group commit). Each request keeps its own
 * expected-revision check and idempotency; a refused request does not affect the others.
 * Runs while holding the head row lock, so the checks below cannot race with another writer.
 */
export async function appendBatch(
  client: PoolClient,
  requests: readonly AppendRequest[],
): Promise<AppendOutcome[]> {
  const head = await client.query<{ position: string }>(
    'SELECT position FROM event_store_head FOR UPDATE',
  );
  let position = BigInt(head.rows[0]!.position);
  const streams = await loadStreams(client, requests);
  const stored = await loadExistingEventIds(client, requests);

  const rows: InsertRows = emptyRows();
  const outcomes = requests.map((request): AppendOutcome => {
    try {
      const retried = idempotentResult(request, stored);
      if (retried) return { ok: true, result: retried };
      const stream = streams.get(request.streamId) ?? { revision: 'no_stream', deleted: false };
      checkExpectedRevision(request, stream);
      if (request.events.length === 0) {
        return { ok: true, result: { nextExpectedRevision: revisionOrMinusOne(stream), position } };
      }
      let revision = stream.revision === 'no_stream' ? -1n : stream.revision;
      for (const event of request.events) {
        revision += 1n;
        position += 1n;
        pushRow(rows, request.streamId, revision, position, event);
        stored.set(event.eventId, { streamId: request.streamId, revision, position });
      }
      streams.set(request.streamId, { revision, deleted: false });
      return { ok: true, result: { nextExpectedRevision: revision, position } };
    } catch (error) {
      return { ok: false, error: error as Error };
    }
  });

  if (rows.positions.length > 0) {
    await insertRows(client, rows);
    await upsertStreams(client, streams, requests);
    await client.query('UPDATE event_store_head SET position = $1', [position.toString()]);
    await client.query('SELECT pg_notify($1, $2)', [EVENTS_NOTIFY_CHANNEL, position.toString()]);
  }
  return outcomes;
}

function revisionOrMinusOne(stream: StreamState): bigint {
  return stream.revision === 'no_stream' ? -1n : stream.revision;
}

async function loadStreams(client: PoolClient, requests: readonly AppendRequest[]) {
  const ids = [...new Set(requests.map((r) => r.streamId))];
  const result = await client.query<{ stream_id: string; revision: string; deleted: boolean }>(
    'SELECT stream_id, revision, deleted FROM event_streams WHERE stream_id = ANY($1::text[])',
    [ids],
  );
  return new Map<string, StreamState>(
    result.rows.map((row) => [
      row.stream_id,
      { revision: BigInt(row.revision), deleted: row.deleted },
    ]),
  );
}

async function loadExistingEventIds(client: PoolClient, requests: readonly AppendRequest[]) {
  const ids = requests.flatMap((r) => r.events.map((e) => e.eventId));
  const result = await client.query<{
    event_id: string;
    stream_id: string;
    stream_revision: string;
    global_position: string;
  }>(
    `SELECT event_id, stream_id, stream_revision, global_position
       FROM events WHERE event_id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map<string, StoredEventRef>(
    result.rows.map((row) => [
      row.event_id,
      {
        streamId: row.stream_id,
        revision: BigInt(row.stream_revision),
        position: BigInt(row.global_position),
      },
    ]),
  );
}

/** A request whose event ids are all stored, in order, in its stream is a retry: answer the first result. */
function idempotentResult(
  request: AppendRequest,
  stored: ReadonlyMap<string, StoredEventRef>,
): AppendResult | undefined {
  const refs = request.events.map((e) => stored.get(e.eventId));
  if (refs.every((ref) => ref === undefined)) return undefined;
  const first = refs[0];
  const consistent =
    first !== undefined &&
    refs.every(
      (ref, index) =>
        ref !== undefined &&
        ref.streamId === request.streamId &&
        ref.revision === first.revision + BigInt(index),
    );
  if (!consistent) {
    const clash = request.events.find((_, index) => refs[index] !== undefined)!;
    throw new DuplicateEventIdError(clash.eventId);
  }
  const last = refs[refs.length - 1]!;
  return { nextExpectedRevision: last.revision, position: last.position };
}

function checkExpectedRevision(request: AppendRequest, stream: StreamState): void {
  if (stream.deleted) throw new StreamDeletedError(request.streamId);
  const { expectedRevision } = request;
  const actual = stream.revision;
  const matches =
    expectedRevision === 'any' ||
    (expectedRevision === 'no_stream' && actual === 'no_stream') ||
    (expectedRevision === 'stream_exists' && actual !== 'no_stream') ||
    (typeof expectedRevision === 'bigint' && actual === expectedRevision);
  if (!matches) throw new WrongExpectedVersionError(request.streamId, expectedRevision, actual);
}

type InsertRows = {
  positions: string[];
  streamIds: string[];
  revisions: string[];
  eventIds: string[];
  types: string[];
  versions: number[];
  data: string[];
  metadata: string[];
  ownerWorkspaces: (string | null)[];
  ownerUsers: (string | null)[];
};

function emptyRows(): InsertRows {
  return {
    positions: [],
    streamIds: [],
    revisions: [],
    eventIds: [],
    types: [],
    versions: [],
    data: [],
    metadata: [],
    ownerWorkspaces: [],
    ownerUsers: [],
  };
}

function pushRow(
  rows: InsertRows,
  streamId: string,
  revision: bigint,
  position: bigint,
  event: EventRecord,
): void {
  const owner = parseStreamName(streamId);
  rows.positions.push(position.toString());
  rows.streamIds.push(streamId);
  rows.revisions.push(revision.toString());
  rows.eventIds.push(event.eventId);
  rows.types.push(event.type);
  rows.versions.push(event.schemaVersion);
  rows.data.push(JSON.stringify(event.data));
  rows.metadata.push(JSON.stringify(event.metadata));
  rows.ownerWorkspaces.push(owner?.workspaceId ?? null);
  rows.ownerUsers.push(owner?.userId ?? null);
}

async function insertRows(client: PoolClient, rows: InsertRows): Promise<void> {
  await client.query(
    `INSERT INTO events (global_position, stream_id, stream_revision, event_id, type, schema_version,
                         data, metadata, owner_workspace_id, owner_user_id)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::int[],
                          $7::jsonb[], $8::jsonb[], $9::text[], $10::text[])`,
    [
      rows.positions,
      rows.streamIds,
      rows.revisions,
      rows.eventIds,
      rows.types,
      rows.versions,
      rows.data,
      rows.metadata,
      rows.ownerWorkspaces,
      rows.ownerUsers,
    ],
  );
}

async function upsertStreams(
  client: PoolClient,
  streams: ReadonlyMap<string, StreamState>,
  requests: readonly AppendRequest[],
): Promise<void> {
  const touched = [...new Set(requests.map((r) => r.streamId))].filter((id) => {
    const state = streams.get(id);
    return state !== undefined && state.revision !== 'no_stream' && !state.deleted;
  });
  await client.query(
    `INSERT INTO event_streams (stream_id, revision)
     SELECT * FROM unnest($1::text[], $2::bigint[])
     ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`,
    [touched, touched.map((id) => (streams.get(id)!.revision as bigint).toString())],
  );
}
