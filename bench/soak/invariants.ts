import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Pool } from 'pg';
import type { ActionStatus } from '@engram/domain';
import type { BenchDatabase } from '../support/bench-database';
import { engramEnvironment } from '../support/engram-process';
import { readModelHashes } from '../support/read-model-hashes';
import { FAILOVER_BOUND_MS, type Failover } from './chaos';
import { pidOf } from './lease-watch';
import type { SoakLog, TrackedAction } from './soak-log';

const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'src', 'main.js');
const SHOWN = 10;

export type Invariant = Readonly<{ name: string; pass: boolean; details: readonly string[] }>;

function invariant(name: string, problems: readonly string[], facts: readonly string[] = []) {
  const shown = problems.slice(0, SHOWN);
  if (problems.length > SHOWN) shown.push(`… and ${problems.length - SHOWN} more`);
  return { name, pass: problems.length === 0, details: [...facts, ...shown] };
}

export function noServerErrors(log: SoakLog): Invariant {
  return invariant(
    'no 5xx (nor unanswered call); every deliberately bad request got a 4xx',
    [...log.serverErrors, ...log.badRequestsNot4xx.map((bad) => `bad request answered ${bad}`)],
    [`${log.requests} requests, ${log.badRequests} of them deliberately bad`],
  );
}

/** Event counts by client id: `data->>field` of every event of `type`. */
async function eventsById(pool: Pool, type: string, field: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ id: string; count: number }>(
    `SELECT data->>'${field}' AS id, count(*)::int AS count FROM events WHERE type = $1 GROUP BY 1`,
    [type],
  );
  return new Map(rows.map((row) => [row.id, row.count]));
}

function onceEach(what: string, acknowledged: Iterable<string>, stored: Map<string, number>) {
  const problems: string[] = [];
  const expected = new Set(acknowledged);
  for (const id of expected) {
    const count = stored.get(id) ?? 0;
    if (count !== 1) problems.push(`${what} ${id} acknowledged, stored ${count} times`);
  }
  for (const [id, count] of stored) {
    if (!expected.has(id)) problems.push(`${what} ${id} stored ${count} times, never acknowledged`);
  }
  return problems;
}

export async function exactlyOnce(pool: Pool, log: SoakLog): Promise<Invariant> {
  const messages = await eventsById(pool, 'MessageRecorded', 'messageId');
  const actions = await eventsById(pool, 'ActionProposed', 'actionId');
  return invariant(
    'every acknowledged message is one MessageRecorded, every acknowledged action one ActionProposed',
    [
      ...onceEach('message', log.messages.keys(), messages),
      ...onceEach('action', log.actions.keys(), actions),
    ],
    [`${log.messages.size} messages, ${log.actions.size} actions acknowledged`],
  );
}

/** What the actions read model must say: the last status told, or expired if it was left pending past its expiry. */
export function expectedStatus(action: TrackedAction, now: number): ActionStatus {
  const expiresAt = action.answer.expiresAt;
  return action.told === 'pending' && expiresAt && Date.parse(expiresAt) <= now
    ? 'expired'
    : action.told;
}

export async function readModelsAgree(pool: Pool, log: SoakLog): Promise<Invariant> {
  const problems: string[] = [];
  // Wipes purge memories and identity cards; the conversation stays, so every message keeps its row.
  const messages = await eventsById(pool, 'MessageRecorded', 'messageId');
  const rows = await pool.query<{ id: string }>('SELECT message_id AS id FROM session_messages');
  const projected = new Set(rows.rows.map((row) => row.id));
  if (projected.size !== rows.rows.length) problems.push('session_messages holds a message twice');
  for (const id of messages.keys()) {
    if (!projected.has(id)) problems.push(`message ${id} has no session_messages row`);
  }
  for (const id of projected) {
    if (!messages.has(id)) problems.push(`session_messages row ${id} has no MessageRecorded`);
  }
  const actions = await pool.query<{ id: string; status: ActionStatus }>(
    'SELECT action_id AS id, status FROM actions',
  );
  const statuses = new Map(actions.rows.map((row) => [row.id, row.status]));
  const now = Date.now();
  for (const [id, action] of log.actions) {
    const expected = expectedStatus(action, now);
    if (statuses.get(id) !== expected) {
      problems.push(
        `action ${id}: read model ${statuses.get(id) ?? 'missing'}, client told ${expected}`,
      );
    }
  }
  problems.push(...log.refusedTransitions.map((refused) => `refused: ${refused}`));
  return invariant(
    'read models agree with the store (session_messages, actions as each client was told)',
    problems,
    [`${projected.size} session_messages rows, ${statuses.size} actions rows`],
  );
}

export async function rebuildChangesNothing(database: BenchDatabase): Promise<Invariant> {
  const before = await readModelHashes(database.ownerUrl);
  const started = Date.now();
  await promisify(execFile)(process.execPath, [CLI, 'rebuild', '--all'], {
    env: engramEnvironment(database),
    maxBuffer: 16 * 2 ** 20,
  });
  const after = await readModelHashes(database.ownerUrl);
  const differing = Object.keys(before).filter((table) => before[table] !== after[table]);
  return invariant(
    'read models equal a clean rebuild (rebuild --all, row hashes of every table)',
    differing.map((table) => `${table}: ${before[table]} before, ${after[table]} rebuilt`),
    [
      `${Object.keys(before).length} tables, rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ],
  );
}

export type LeaseRecord = Readonly<{
  failovers: readonly Failover[];
  longestUncoveredMs: number;
  /** The workers stopped with SIGTERM: they must have given their leases back and signed off. */
  stoppedPids: ReadonlySet<number>;
}>;

export async function leasesBehaved(pool: Pool, leases: LeaseRecord): Promise<Invariant> {
  const problems: string[] = [];
  leases.failovers.forEach(({ failoverMs, boundMs }, index) => {
    if (failoverMs === null) {
      problems.push(`kill ${index + 1}: the partitions were never all held again`);
    } else if (failoverMs > boundMs) {
      problems.push(`kill ${index + 1}: failover ${failoverMs} ms > ${boundMs} ms`);
    }
  });
  const allowed = Math.max(FAILOVER_BOUND_MS, ...leases.failovers.map((f) => f.boundMs));
  if (leases.longestUncoveredMs > allowed) {
    problems.push(
      `a partition went ${leases.longestUncoveredMs} ms without a live holder (> ${allowed} ms)`,
    );
  }
  const held = await pool.query<{ name: string; holder: string }>(
    'SELECT name, holder FROM worker_leases WHERE holder IS NOT NULL',
  );
  problems.push(
    ...held.rows.map((row) => `${row.name} still held by ${row.holder} after shutdown`),
  );
  // A SIGKILLed worker cannot sign off: its row stays until the survivors forget it.
  const instances = await pool.query<{ id: string }>('SELECT id FROM worker_instances');
  problems.push(
    ...instances.rows
      .filter((row) => leases.stoppedPids.has(pidOf(row.id)))
      .map((row) => `worker ${row.id} still registered after its graceful shutdown`),
  );
  return invariant('leases: failover within the bound, none held after shutdown', problems, [
    `longest time a partition had no live holder: ${leases.longestUncoveredMs} ms (bound ${allowed} ms)`,
  ]);
}

export function retriesAnsweredAlike(log: SoakLog): Invariant {
  return invariant(
    'idempotent retries returned the same ids and positions',
    log.retries === 0 ? ['no retry was made'] : log.retryMismatches,
    [`${log.retries} retries`],
  );
}

export function shutdownWasGraceful(
  exits: readonly Readonly<{ name: string; code: number | null; signal: string | null }>[],
  settled: Readonly<{
    settled: boolean;
    stillAtHead: boolean;
    seconds: number;
    waitingFor: readonly string[];
  }>,
): Invariant {
  const problems = exits
    .filter((exit) => exit.code !== 0)
    .map((exit) => `${exit.name} exited with ${exit.code ?? exit.signal}`);
  if (!settled.settled) {
    problems.push(
      `the background work did not settle in ${settled.seconds.toFixed(0)} s`,
      ...settled.waitingFor.map((waiting) => `still waiting for ${waiting}`),
    );
  }
  if (!settled.stillAtHead) problems.push('a checkpoint fell behind the head during the shutdown');
  return invariant('graceful shutdown: settled at the head, every process exited 0', problems, [
    `settled in ${settled.seconds.toFixed(1)} s; ${exits.length} processes stopped`,
  ]);
}
