import type { Pool } from 'pg';
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

type OutcomeRow = {
  o_outcome:
    'ok' | 'already_stored' | 'duplicate_event_id' | 'stream_deleted' | 'wrong_expected_version';
  o_revision: string | null;
  o_position: string | null;
  o_clash: string | null;
};

/**
 * Writes many append requests in one transaction (group commit): one call of `engram_append_batch`
 * (append-function.ts), which takes the head lock, checks each request on its own and answers one
 * outcome per request, in order. A refused request does not affect the others.
 */
export async function appendBatch(
  pool: Pool,
  requests: readonly AppendRequest[],
): Promise<AppendOutcome[]> {
  const owners = requests.map((request) => parseStreamName(request.streamId));
  const events = requests.flatMap((request) => request.events);
  const result = await pool.query<OutcomeRow>(
    `SELECT * FROM engram_append_batch($1::text[], $2::text[], $3::int[], $4::text[], $5::text[],
       $6::uuid[], $7::text[], $8::int[], $9::jsonb[], $10::jsonb[], $11)`,
    [
      requests.map((request) => request.streamId),
      requests.map((request) => String(request.expectedRevision)),
      requests.map((request) => request.events.length),
      owners.map((owner) => owner?.workspaceId ?? null),
      owners.map((owner) => owner?.userId ?? null),
      events.map((event) => event.eventId),
      events.map((event) => event.type),
      events.map((event) => event.schemaVersion),
      events.map((event) => JSON.stringify(event.data)),
      events.map((event) => JSON.stringify(event.metadata)),
      EVENTS_NOTIFY_CHANNEL,
    ],
  );
  return result.rows.map((row, index) => toOutcome(requests[index]!, row));
}

function toOutcome(request: AppendRequest, row: OutcomeRow): AppendOutcome {
  const revision = row.o_revision === null ? null : BigInt(row.o_revision);
  switch (row.o_outcome) {
    case 'ok':
    case 'already_stored':
      return {
        ok: true,
        result: {
          nextExpectedRevision: revision!,
          position: BigInt(row.o_position!),
          alreadyStored: row.o_outcome === 'already_stored',
        },
      };
    case 'duplicate_event_id':
      return { ok: false, error: new DuplicateEventIdError(row.o_clash!) };
    case 'stream_deleted':
      return { ok: false, error: new StreamDeletedError(request.streamId) };
    case 'wrong_expected_version':
      return {
        ok: false,
        error: new WrongExpectedVersionError(
          request.streamId,
          request.expectedRevision,
          revision ?? 'no_stream',
        ),
      };
  }
}
