import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';

const POLL_MS = 100;

/**
 * Watches `worker_leases` while the soak runs: a partition is covered when a live worker holds an
 * unexpired lease on it. Records the longest time any partition went uncovered.
 */
export class LeaseWatch {
  private readonly uncoveredSince = new Map<string, number>();
  private covered = false;
  longestUncoveredMs = 0;

  constructor(
    private readonly pool: Pool,
    private readonly livePids: () => ReadonlySet<number>,
  ) {}

  async poll(): Promise<boolean> {
    const { rows } = await this.pool.query<{ name: string; holder: string | null; valid: boolean }>(
      'SELECT name, holder, expires_at > now() AS valid FROM worker_leases',
    );
    const now = Date.now();
    const live = this.livePids();
    this.covered = rows.length > 0;
    for (const row of rows) {
      if (row.valid && row.holder !== null && live.has(pidOf(row.holder))) {
        this.uncoveredSince.delete(row.name);
        continue;
      }
      this.covered = false;
      const since = this.uncoveredSince.get(row.name) ?? now;
      this.uncoveredSince.set(row.name, since);
      this.longestUncoveredMs = Math.max(this.longestUncoveredMs, now - since);
    }
    return this.covered;
  }

  /** Polls until `signal` aborts. */
  async watch(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      // A failed poll is only a gap in the observation.
      await this.poll().catch(() => undefined);
      await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Resolves with true once every partition is covered, false after `timeoutMs`. */
  async waitUntilCovered(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.poll())) {
      if (Date.now() > deadline) return false;
      await sleep(POLL_MS);
    }
    return true;
  }

  /** Forgets what was seen so far (the start-up, before every partition was first taken). */
  reset(): void {
    this.uncoveredSince.clear();
    this.longestUncoveredMs = 0;
  }
}

/** Worker ids are `<host>:<pid>:<random>` (platform/ BackgroundWorker). */
export function pidOf(holder: string): number {
  const parts = holder.split(':');
  return Number(parts[parts.length - 2]);
}
