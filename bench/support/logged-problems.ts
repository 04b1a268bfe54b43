/** Distinct messages kept per process; past it, further ones are counted under one key. */
const MAX_KINDS = 50;

/**
 * What a process the bench started logged at `warn` or above (its JSON lines, as Engram logs), each
 * message counted with its numbers as `#` so that one warning repeated for a thousand events is one
 * entry. A round whose process managers fell behind says why (a reactor retrying, a lease lost)
 * instead of leaving a number to explain.
 */
export class LoggedProblems {
  private readonly counts = new Map<string, number>();
  private partial = '';

  /** Takes the process's output as it comes (lines may span chunks). */
  write(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.note(line);
  }

  /** Every message so far and how many times it was logged. */
  snapshot(): ReadonlyMap<string, number> {
    return new Map(this.counts);
  }

  private note(line: string): void {
    if (!/"level":"(warn|error|fatal)"/.test(line)) return;
    let key: string;
    try {
      const entry = JSON.parse(line) as { level?: string; context?: string; msg?: string };
      key = `${entry.level} ${entry.context ?? '-'}: ${String(entry.msg ?? '').replace(/\d+/g, '#')}`;
    } catch {
      key = line.slice(0, 200);
    }
    if (!this.counts.has(key) && this.counts.size >= MAX_KINDS) key = '(other messages)';
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

/** What was logged between two snapshots of the same processes (each process's messages added up). */
export function loggedSince(
  before: readonly ReadonlyMap<string, number>[],
  after: readonly ReadonlyMap<string, number>[],
): Record<string, number> {
  const since: Record<string, number> = {};
  after.forEach((counts, i) => {
    for (const [key, count] of counts) {
      const added = count - (before[i]?.get(key) ?? 0);
      if (added > 0) since[key] = (since[key] ?? 0) + added;
    }
  });
  return since;
}
