import type { Writable } from 'node:stream';
import { Client } from 'pg';
import { isIdentifier, systemClock } from '@engram/domain';
import {
  ExportAbortedError,
  exportRenderer,
  recordAuditAccess,
  writeUserExport,
} from '@engram/gdpr';
import { createCodec, createEventStore, type Runtime } from '@engram/platform';
import type { CliArgs } from '../args';

export const EXPORT_USAGE =
  'export --ws <workspace> --user <user> > user.ndjson   (the user’s events as NDJSON, decrypted)';

type Output = Writable & { isTTY?: boolean };

/**
 * The same NDJSON as `GET /v1/workspaces/{ws}/users/{userId}/export`, on stdout; the access is recorded
 * first (auditor `cli`) and the export covers everything up to that record. On a terminal, stderr
 * shows a progress line (events written / the user's event count), otherwise one summary line.
 */
export async function exportCommand(
  runtime: Runtime,
  args: CliArgs,
  io: Readonly<{ stdout: Output; stderr: Output }> = {
    stdout: process.stdout,
    stderr: process.stderr,
  },
): Promise<void> {
  const { ws, user } = args.values;
  if (!isIdentifier(ws)) throw new Error(`--ws must be an identifier. Usage: ${EXPORT_USAGE}`);
  if (!isIdentifier(user)) throw new Error(`--user must be an identifier. Usage: ${EXPORT_USAGE}`);
  // The API role: it appends the audit record and reads the data keys to decrypt.
  const store = createEventStore(runtime, runtime.appUrl, 'engram-cli');
  const { codec, keysOf, close } = createCodec(runtime, runtime.appUrl, 'engram-cli');
  // Pages decrypted and rendered on a second thread while this one reads and writes (as the API).
  const renderer = exportRenderer(codec, keysOf);
  // `engram export … | head` closes the pipe early: the export stops instead of crashing.
  const onOutputError = () => undefined;
  io.stdout.on('error', onOutputError);
  try {
    const started = Date.now();
    const through = await recordAuditAccess(
      { store, codec, clock: runtime.clock ?? systemClock },
      { workspaceId: ws, userId: user, access: 'export', auditorId: 'cli' },
    );
    const total = io.stderr.isTTY ? await countUserEvents(runtime, ws, user, through) : undefined;
    const progress = io.stderr.isTTY ? new ProgressLine(io.stderr, total, started) : undefined;
    let written = 0;
    const result = await writeUserExport(
      { store, codec, render: renderer.render },
      ws,
      user,
      {
        through,
        onProgress: (count) => {
          written = count;
          progress?.update(count);
        },
      },
      io.stdout,
    ).catch((error: unknown) => {
      if (error instanceof ExportAbortedError || (error as { code?: unknown }).code === 'EPIPE') {
        throw new Error(`export incomplete: the output was closed after ${written} events`);
      }
      throw error;
    });
    progress?.finish(result.events);
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    io.stderr.write(
      `${ws}/${user}: ${result.events} events (${formatBytes(result.bytes)}) through position ${through} in ${seconds.toFixed(1)} s\n`,
    );
  } finally {
    io.stdout.off('error', onOutputError);
    await renderer.close();
    await store.close();
    await close();
  }
}

/**
 * The user's event count up to `through`, for the progress bar: an index-only count on the PostgreSQL
 * store (cheap, bounded by the user's events); unknown on EventStoreDB (a running count is shown).
 */
async function countUserEvents(
  runtime: Runtime,
  workspaceId: string,
  userId: string,
  through: bigint,
): Promise<number | undefined> {
  if (runtime.config.eventStoreUrl) return undefined;
  const client = new Client({ connectionString: runtime.appUrl, application_name: 'engram-cli' });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM events
        WHERE owner_workspace_id = $1 AND owner_user_id = $2 AND global_position <= $3`,
      [workspaceId, userId, through.toString()],
    );
    return Number(result.rows[0]?.count ?? 0);
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

/** A progress bar on one terminal line, redrawn with a carriage return at most every 100 ms. */
class ProgressLine {
  private drawnAt = 0;

  constructor(
    private readonly out: Output,
    private readonly total: number | undefined,
    private readonly started: number,
  ) {}

  update(written: number, force = false): void {
    const now = Date.now();
    if (!force && now - this.drawnAt < 100) return;
    this.drawnAt = now;
    const rate = Math.round(written / Math.max(0.001, (now - this.started) / 1000));
    const counts =
      this.total === undefined ? `${written} events` : `${written}/${this.total} events`;
    let bar = '';
    if (this.total !== undefined && this.total > 0) {
      const width = 30;
      const filled = Math.min(width, Math.round((written / this.total) * width));
      const percent = Math.min(100, Math.floor((written / this.total) * 100));
      bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}% `;
    }
    this.out.write(`\r${bar}${counts}  ${rate} events/s\x1b[K`);
  }

  finish(written: number): void {
    this.update(written, true);
    this.out.write('\n');
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
