import { BACKWARDS, END, RUNNING } from '@eventstore/db-client';
import type { EventStoreDBClient, Position } from '@eventstore/db-client';
import { EventStoreMisconfiguredError } from '../errors';
import { collect, waitForLink, type WaitBounds } from './category-stream';
import { toStoreError } from './client-errors';
import { isSystemEvent } from './engram-events';
import { toLogicalStreamName } from './physical-stream-name';

export const CATEGORY_PROJECTION = '$by_category';
/** Events of `$all` looked at, newest first, for one of Engram's to check the separator on. */
const SAMPLE_WINDOW = 1000;

export type CategoryProjectionReport = Readonly<{
  projection: typeof CATEGORY_PROJECTION;
  status: string;
  /**
   * `verified`: the newest Engram event is linked in the category its name was built for (split at
   * the first `-`); `no-event-yet`: nothing to check it on (a new store), checked again by the next
   * call (health).
   */
  separator: 'verified' | 'no-event-yet';
}>;

/**
 * `$by_category` must run, splitting stream names at their first `-`: per-user reads and erasure
 * read its `$ce-…` streams, and without it they would silently find nothing. Throws
 * EventStoreMisconfiguredError saying what to change.
 */
export async function checkCategoryProjection(
  client: EventStoreDBClient,
  bounds: WaitBounds,
): Promise<CategoryProjectionReport> {
  const details = await client.getProjectionStatus(CATEGORY_PROJECTION).catch((error: unknown) => {
    const cause = toStoreError(error);
    throw new EventStoreMisconfiguredError(
      `EventStoreDB: the ${CATEGORY_PROJECTION} projection cannot be read (${String(cause)}); ` +
        'run the server with EVENTSTORE_RUN_PROJECTIONS=System (or All) and ' +
        'EVENTSTORE_START_STANDARD_PROJECTIONS=true',
      { cause },
    );
  });
  if (details.projectionStatus !== RUNNING) {
    throw new EventStoreMisconfiguredError(
      `EventStoreDB: the ${CATEGORY_PROJECTION} projection is ${details.status || details.projectionStatus}, ` +
        `not ${RUNNING}${details.stateReason ? ` (${details.stateReason})` : ''}; enable it`,
    );
  }
  const sample = await newestEngramEvent(client);
  if (sample === undefined) {
    return { projection: CATEGORY_PROJECTION, status: RUNNING, separator: 'no-event-yet' };
  }
  const category = sample.streamName.slice(0, sample.streamName.indexOf('-'));
  const linked = await waitForLink(client, `$ce-${category}`, sample.position, bounds);
  if (!linked.reached) {
    throw new EventStoreMisconfiguredError(
      `EventStoreDB: ${CATEGORY_PROJECTION} does not link ${sample.streamName} into $ce-${category} ` +
        `(waited ${linked.waitedMs} ms): its separator must be the first "-" (query "first\\n-"), ` +
        'the standard setting',
    );
  }
  return { projection: CATEGORY_PROJECTION, status: RUNNING, separator: 'verified' };
}

async function newestEngramEvent(
  client: EventStoreDBClient,
): Promise<{ streamName: string; position: bigint } | undefined> {
  const recent = await collect(
    client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: SAMPLE_WINDOW }),
  ).catch((error: unknown) => {
    throw toStoreError(error);
  });
  for (const { event } of recent) {
    if (event === undefined || isSystemEvent(event)) continue;
    if (toLogicalStreamName(event.streamId) === undefined) continue;
    const position: Position | undefined = event.position;
    if (position !== undefined) return { streamName: event.streamId, position: position.commit };
  }
  return undefined;
}
