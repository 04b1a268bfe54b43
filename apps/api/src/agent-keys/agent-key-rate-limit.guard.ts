import { Injectable, type ExecutionContext } from '@nestjs/common';
import {
  ThrottlerException,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import type { AuthenticatedRequest } from '@engram/auth';

export const KEY_RATE_WINDOW_MS = 60_000;

function keyIdOf(context: ExecutionContext): string | undefined {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.keyId;
}

/**
 * The throttler's options: `limit` requests per sliding minute per key. `blockDuration: 0` keeps the
 * window sliding (a refused request does not count, and the caller may go on as soon as its oldest
 * request of the minute leaves the window, which is what Retry-After says) rather than blocking the
 * key for a whole minute.
 */
export function keyRateLimitOptions(limit: number): ThrottlerModuleOptions {
  return {
    throttlers: [{ limit, ttl: KEY_RATE_WINDOW_MS, blockDuration: 0 }],
    errorMessage: (_: ExecutionContext, detail: ThrottlerLimitDetail) =>
      `This service key made ${detail.limit} requests in the last minute, its limit; retry in ${detail.timeToBlockExpire} s`,
  };
}

/**
 * The per-key rate limit (ENGRAM_KEY_RATE_LIMIT): runs after AuthGuard, which put the key's principal
 * on the request; callers with a JWT pass untouched. The counts live in this process's memory, so a
 * cluster of N API processes lets a key make up to N times the limit: the limit protects each
 * process from one runaway agent loop, not the cluster from a determined one.
 */
@Injectable()
export class AgentKeyRateLimitGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const limited = this.throttlers.some((throttler) => throttler.limit !== 0);
    return Promise.resolve(!limited || keyIdOf(context) === undefined);
  }

  /** Counted by key, whatever the route (the default counts per route and client address). */
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve((request as AuthenticatedRequest).principal!.keyId!);
  }

  protected override generateKey(_: ExecutionContext, tracker: string, name: string): string {
    return `agent-key:${name}:${tracker}`;
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    return this.getErrorMessage(context, detail).then((message) => {
      throw new ThrottlerException(message);
    });
  }
}
