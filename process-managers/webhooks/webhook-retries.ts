/**
 * Seconds to wait after each failed attempt before the next: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h,
 * 4 h, 8 h, 8 h — ten attempts over about 24 hours, then the delivery is `failed` (kept in the log).
 * Long enough to ride out a deployment or an outage of the receiver, short enough that a fixed
 * receiver is not left waiting for hours at first.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800];

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;

/**
 * Milliseconds before the attempt after `attempts` attempts, with ±20 % jitter (receivers that came
 * back are not hit by every workspace's retries in the same second); undefined after the last one.
 */
export function retryDelayMs(
  attempts: number,
  random: () => number = Math.random,
): number | undefined {
  const base = WEBHOOK_RETRY_DELAYS_SECONDS[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * 1000 * (0.8 + 0.4 * random()));
}
