/**
 * What a workspace may subscribe a webhook to, as subscribers read it (dotted, lower case, stable),
 * mapped from the domain events by the webhooks process manager:
 * - `action.expired`: ActionExpired;
 * - `memory.pending_review`: a MemoryCandidateDetected that waits for a reviewer (review mode admin or
 *   user, below the auto-approval threshold), not one the policy approved at once;
 * - `memory.approved`: MemoryApproved (by a reviewer or by the policy);
 * - `memory.rejected`: MemoryRejected, and MemoryExpired (reported as rejected, reason `expired`);
 * - `user.erased`: UserErased.
 */
export const WEBHOOK_EVENT_TYPES = [
  'action.expired',
  'memory.pending_review',
  'memory.approved',
  'memory.rejected',
  'user.erased',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(value);
}

/** Longest URL an endpoint may have (what browsers and proxies commonly accept). */
export const WEBHOOK_URL_MAX_LENGTH = 2000;

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why `url` cannot receive deliveries, or undefined when it can. Deliveries carry a signature but
 * their body travels as it is: https only, except http to this machine (tests, a local receiver),
 * where nothing crosses a network. No credentials in the URL (they would be stored in the log).
 */
export function webhookUrlProblem(url: string): string | undefined {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) {
    return `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute URL (https://…)';
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return 'url must not carry credentials (user:password@)';
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && isLoopback(parsed.hostname)) return undefined;
  return 'url must use https (http only to a loopback address: localhost, 127.0.0.1, ::1)';
}

/** Why `events` cannot be subscribed to, or undefined: a non-empty list of known types, each once. */
export function webhookEventsProblem(events: readonly unknown[]): string | undefined {
  if (events.length === 0) return 'events must name at least one event type';
  const unknown = events.filter((event) => !isWebhookEventType(event));
  if (unknown.length > 0) {
    return `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')} (unknown: ${unknown.map(String).join(', ')})`;
  }
  if (new Set(events).size !== events.length) return 'events must name each event type once';
  return undefined;
}
