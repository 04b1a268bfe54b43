import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { CommittedCheckpoints } from './committed-checkpoints';

export type CheckpointWait = Readonly<{
  /** The caller is stopping: the wait ends at once. */
  signal?: AbortSignal;
  /** The runners of this process: the projections they run are awaited without polling. */
  committed?: CommittedCheckpoints;
}>;

/** The API polls fast (a request waits); a worker polls only for projections other workers run. */
const POLL_ALONE = { firstMs: 2, maxMs: 50 };
const POLL_BESIDE_RUNNERS = { firstMs: 10, maxMs: 100 };

/**
 * Waits until every named projection has applied `position`, or `timeoutMs` passed, or the signal
 * aborted. A projection run in this process is awaited on its runner's commits; the others are
 * polled in the checkpoints table. Returns the projections still behind (empty when reached).
 */
export async function waitForCheckpoints(
  dataSource: DataSource,
  names: readonly string[],
  position: bigint,
  timeoutMs: number,
  { signal, committed }: CheckpointWait = {},
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  const poll = committed ? POLL_BESIDE_RUNNERS : POLL_ALONE;
  // A checkpoint this process already read at or past `position` is reached: a worker catching up
  // on the projections of another worker used to send a query per reaction for a position the
  // previous reaction's query had already seen passed.
  const reachedInTable = new Set<string>(
    names.filter((name) => (committed?.tablePositionOf(name) ?? -1n) >= position),
  );
  const runsHere = (name: string) => committed?.positionOf(name) !== undefined;
  for (let pause = poll.firstMs; ; pause = Math.min(pause * 2, poll.maxMs)) {
    const elsewhere = names.filter((name) => !runsHere(name) && !reachedInTable.has(name));
    if (elsewhere.length > 0) {
      const rows = await dataSource.query<{ name: string; position: string }[]>(
        'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)',
        [elsewhere],
      );
      for (const row of rows) {
        const at = BigInt(row.position);
        committed?.sawInTable(row.name, at);
        if (at >= position) reachedInTable.add(row.name);
      }
    }
    const behind = names.filter((name) => {
      const here = committed?.positionOf(name);
      return here === undefined ? !reachedInTable.has(name) : here < position;
    });
    const remaining = deadline - Date.now();
    if (behind.length === 0 || remaining <= 0 || signal?.aborted) return behind;
    if (behind.every(runsHere)) await nextCommit(committed!, behind, remaining, signal);
    else await sleep(Math.min(pause, remaining), undefined, { signal }).catch(() => undefined);
  }
}

/**
 * Waits until every projection partition run in this process has committed `position` (one that
 * stops meanwhile no longer counts), for `timeoutMs` at most, or until `signal` aborts.
 */
export async function waitForAllCommitted(
  committed: CommittedCheckpoints,
  position: bigint,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const behind = committed.behind(position);
    const remaining = deadline - Date.now();
    if (behind.length === 0 || remaining <= 0 || signal?.aborted) return;
    await nextCommit(committed, behind, remaining, signal);
  }
}

/** Resolves at the next commit of one of `names`, after `timeoutMs`, or when `signal` aborts. */
async function nextCommit(
  committed: CommittedCheckpoints,
  names: readonly string[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await committed.nextChange(names, stop.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
