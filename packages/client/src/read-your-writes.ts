import type { Scope } from './routes';

/**
 * The last `position` each scope's writes were answered with, sent back as `minPosition` on its reads
 * so that a read sees what this client wrote (the read models are updated asynchronously).
 * A user's reads wait for the user's writes and the workspace's (a policy, a review decision).
 */
export class WrittenPositions {
  private readonly positions = new Map<string, number>();

  remember(key: string | undefined, position: unknown): void {
    if (key === undefined || typeof position !== 'number' || !Number.isFinite(position)) return;
    this.positions.set(key, Math.max(position, this.positions.get(key) ?? 0));
  }

  /** What a read of `keys` must wait for; undefined when none of them wrote yet. */
  atLeast(keys: readonly string[]): number | undefined {
    const known = keys.map((key) => this.positions.get(key)).filter((p) => p !== undefined);
    return known.length === 0 ? undefined : Math.max(...known);
  }
}

/** The keys a request's position is kept under (first) and its reads wait for (all). */
export function scopeKeys(scope: Scope, workspace: string, userId: string | undefined): string[] {
  const ws = `workspace:${workspace}`;
  switch (scope) {
    case 'user':
      return [`user:${workspace}/${userId ?? ''}`, ws];
    case 'me':
      return ['me', ws];
    case 'workspace':
      return [ws];
    case 'none':
      return [];
  }
}
