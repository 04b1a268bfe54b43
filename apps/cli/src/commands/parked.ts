import { createDataSource } from '@engram/database';
import {
  isIdentifier,
  operationsStream,
  parkedEventDecider,
  systemClock,
  type ParkedEventCommand,
  type ParkedEventRef,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { createCodec, createEventStore, type Runtime } from '@engram/platform';
import {
  READ_MODEL_ENTITIES,
  WORKSPACE_OWNER,
  listParked,
  type ParkedEvent,
} from '@engram/projections';
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import type { CliArgs } from '../args';

export const PARKED_USAGE =
  'parked list | retry <consumer> --ws <ws> --user <user|~> | skip <consumer> --ws <ws> --user <user|~> --reason "…"';

/**
 * What the background consumers parked, and the operator's answer: `retry` applies the parked event
 * again (after a fix), then the owner's later events; `skip` passes over it for good. Both are
 * recorded as events on the workspace's operations stream (who, and for a skip why), which the
 * partition holding the owner carries out when it reads them, on any worker.
 */
export async function parkedCommand(runtime: Runtime, args: CliArgs): Promise<void> {
  const [action, consumer] = args.positionals;
  if (action === 'list') return list(runtime);
  if (action !== 'retry' && action !== 'skip') throw new Error(`Usage: ${PARKED_USAGE}`);
  const { ws, user, reason, by } = args.values;
  if (typeof consumer !== 'string' || consumer === '') {
    throw new Error(`name the consumer (a projection, or reactor:<name>). Usage: ${PARKED_USAGE}`);
  }
  if (!isIdentifier(ws)) throw new Error(`--ws must be an identifier. Usage: ${PARKED_USAGE}`);
  if (user !== WORKSPACE_OWNER && !isIdentifier(user)) {
    throw new Error(`--user must be an identifier or ~ (the workspace). Usage: ${PARKED_USAGE}`);
  }
  if (action === 'skip' && (typeof reason !== 'string' || reason.trim() === '')) {
    throw new Error(`a skip needs --reason "why". Usage: ${PARKED_USAGE}`);
  }
  const parked = (await withParked(runtime, (rows) => rows)).find(
    (row) => row.consumer === consumer && row.workspaceId === ws && row.userId === user,
  );
  if (!parked)
    throw new Error(`nothing of ${ws}/${user} is parked by ${consumer} (see: parked list)`);
  const requestedBy = `cli:${typeof by === 'string' && by !== '' ? by : userInfo().username}`;
  const ref: ParkedEventRef = {
    consumer,
    workspaceId: ws,
    userId: user === WORKSPACE_OWNER ? null : user,
    eventId: parked.eventId,
  };
  const command: ParkedEventCommand =
    action === 'retry'
      ? { type: 'RetryParkedEvent', ref, requestedBy }
      : { type: 'SkipParkedEvent', ref, requestedBy, reason: String(reason).trim() };
  const store = createEventStore(runtime, runtime.appUrl, 'engram-cli');
  const { codec, close } = createCodec(runtime, runtime.appUrl, 'engram-cli');
  try {
    const result = await handleCommand(
      { store, codec },
      operationsStream(ws),
      parkedEventDecider,
      command,
      {
        metadata: {
          workspaceId: ws,
          userId: requestedBy,
          causationId: parked.eventId,
          correlationId: randomUUID(),
          occurredAt: (runtime.clock ?? systemClock).now().toUTC().toISO()!,
        },
      },
    );
    process.stderr.write(
      `${action} of ${parked.eventType} ${parked.eventId} (${consumer}, ${ws}/${user}) recorded at ` +
        `position ${result.position}; the partition ${parked.partition} carries it out when it reads it\n`,
    );
  } finally {
    await store.close();
    await close();
  }
}

async function list(runtime: Runtime): Promise<void> {
  const rows = await withParked(runtime, (parked) => parked);
  if (rows.length === 0) {
    process.stdout.write('nothing is parked\n');
    return;
  }
  for (const row of rows) {
    process.stdout.write(
      [
        row.consumer,
        `${row.workspaceId}/${row.userId}`,
        `position ${row.position}`,
        row.eventType,
        row.eventId,
        `${row.attempts} tries`,
        `since ${row.firstSeenAt.toISOString()}`,
        `last ${row.lastSeenAt.toISOString()}`,
        row.error,
      ].join('\t') + '\n',
    );
  }
}

async function withParked<T>(runtime: Runtime, use: (rows: ParkedEvent[]) => T): Promise<T> {
  const dataSource = await createDataSource(
    runtime.projectorUrl,
    READ_MODEL_ENTITIES,
    1,
    'engram-cli',
  ).initialize();
  try {
    return use(await listParked(dataSource.manager));
  } finally {
    await dataSource.destroy();
  }
}
