import { Injectable } from '@nestjs/common';
import type { Principal } from '@engram/auth';

/** Callers and users remembered at most; the oldest written is forgotten first. */
const MAX_ENTRIES = 10_000;

/**
 * Read-your-writes for MCP over HTTP. The server is stateless (a new one per request), and a model
 * cannot be relied on to carry a write's `position` into its next call; so this process remembers,
 * per caller (token subject and key) and user, the last position a tool's write answered, and the
 * next tool call of that caller for that user reads with it as `minPosition`: a `get_action` right
 * after `propose_action` finds the action. Per API process: behind a load balancer spreading one
 * client's requests over several processes, a read may still land before the write is projected
 * (the stdio server and `@engram/client` track positions themselves).
 */
@Injectable()
export class WrittenPositions {
  private readonly positions = new Map<string, number>();

  get(principal: Principal, userId: string): number | undefined {
    return this.positions.get(keyOf(principal, userId));
  }

  /** Keeps the position a tool answered (`data.position`), if it answered one. */
  remember(principal: Principal, userId: string, data: unknown): void {
    const position = (data as { position?: unknown } | null | undefined)?.position;
    if (typeof position !== 'number' || !Number.isSafeInteger(position) || position <= 0) return;
    const key = keyOf(principal, userId);
    const known = this.positions.get(key);
    this.positions.delete(key);
    this.positions.set(key, Math.max(position, known ?? 0));
    if (this.positions.size > MAX_ENTRIES) {
      this.positions.delete(this.positions.keys().next().value!);
    }
  }
}

function keyOf(principal: Principal, userId: string): string {
  return [principal.workspaceId, principal.userId, principal.keyId ?? '', userId].join('\u0000');
}
