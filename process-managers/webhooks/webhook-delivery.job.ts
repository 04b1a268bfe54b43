import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock, SealedSecret } from '@engram/domain';
import type { DataSource } from 'typeorm';
import {
  cancelDeliveriesOfRemovedWebhooks,
  findDueDeliveries,
  recordOutcome,
  startAttempt,
  type AttemptOutcome,
  type DueDelivery,
} from './webhook-outbox';
import { retryDelayMs } from './webhook-retries';
import { webhookSignature } from './webhook-signature';

/** Port: opens an endpoint's sealed signing secret (libs/crypto `workspaceSecrets`). */
export type WebhookSecretOpener = Readonly<{
  open(workspaceId: string, name: string, sealed: SealedSecret): Promise<string>;
}>;

/** The name a webhook's secret is sealed under (its AAD): the API seals, the deliverer opens. */
export function webhookSecretName(webhookId: string): string {
  return `webhook:${webhookId}`;
}

export type WebhookDeliveryDependencies = Readonly<{
  /** Projector role: the outbox of every workspace. */
  dataSource: DataSource;
  clock: Clock;
  secrets: WebhookSecretOpener;
  onError?: (error: unknown) => void;
}>;

export type WebhookDeliveryOptions = Readonly<{
  /** How long a receiver may take to answer (default 5 s): then the attempt failed. */
  timeoutMs?: number;
  /** How often due deliveries are looked for (default 1 s). */
  pollMs?: number;
  /** Attempts in flight to one endpoint at once (default 2). */
  perEndpoint?: number;
  /** Attempts in flight in all (default 32). */
  maxInFlight?: number;
  random?: () => number;
}>;

/** Where a delivery's crash guard puts its next try when it was the last attempt. */
const LAST_ATTEMPT_GUARD_MS = 60_000;

/**
 * Sends the due webhook deliveries: POST of the stored body, signed, within a timeout; 2xx is
 * delivered, anything else is tried again with backoff (`retryDelayMs`) until the last attempt, then
 * failed. Each attempt runs on its own, bounded per endpoint and in all: an endpoint that is slow or
 * never answers holds its own slots (until its timeout) and no one else's; the next look for due work
 * does not wait for it. At least once: the attempt is counted and the next one scheduled before the
 * request leaves, so a crash mid-request means one more attempt later, with the same delivery id.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly busy = new Map<string, number>();
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  private readonly random: () => number;

  constructor(
    private readonly deps: WebhookDeliveryDependencies,
    options: WebhookDeliveryOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.perEndpoint = options.perEndpoint ?? 2;
    this.maxInFlight = options.maxInFlight ?? 32;
    this.random = options.random ?? Math.random;
  }

  /** Looks for due work every `pollMs` until `signal` aborts, then lets what is in flight end. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.tick(signal);
      } catch (error) {
        this.deps.onError?.(error);
      }
      await sleep(this.pollMs, undefined, { signal }).catch(() => undefined);
    }
    await this.idle();
  }

  /** Starts the attempts now due that the slots allow; returns how many it started, without waiting for them. */
  async tick(signal?: AbortSignal): Promise<number> {
    const manager = this.deps.dataSource.manager;
    await cancelDeliveriesOfRemovedWebhooks(manager);
    const free = this.maxInFlight - this.inFlight.size;
    if (free <= 0) return 0;
    const now = this.deps.clock.now().toJSDate();
    const due = await findDueDeliveries(manager, now, [...this.inFlight.keys()], free * 4);
    let started = 0;
    for (const delivery of due) {
      // Stopping: claiming would count an attempt that is aborted before it is sent (and freed
      // slots are many then, as the aborted requests end).
      if (signal?.aborted) break;
      if (this.inFlight.size >= this.maxInFlight) break;
      if ((this.busy.get(delivery.webhookId) ?? 0) >= this.perEndpoint) continue;
      const retryIn = retryDelayMs(delivery.attempts + 1, this.random) ?? LAST_ATTEMPT_GUARD_MS;
      const retryAt = new Date(now.getTime() + retryIn);
      if (!(await startAttempt(manager, delivery, now, retryAt))) continue;
      this.track(delivery, this.attempt(delivery, retryAt, signal));
      started += 1;
    }
    return started;
  }

  /** Waits until no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  private track(delivery: DueDelivery, attempt: Promise<void>): void {
    this.busy.set(delivery.webhookId, (this.busy.get(delivery.webhookId) ?? 0) + 1);
    const done = attempt
      .catch((error: unknown) => this.deps.onError?.(error))
      .finally(() => {
        this.inFlight.delete(delivery.deliveryId);
        const left = (this.busy.get(delivery.webhookId) ?? 1) - 1;
        if (left > 0) this.busy.set(delivery.webhookId, left);
        else this.busy.delete(delivery.webhookId);
      });
    this.inFlight.set(delivery.deliveryId, done);
  }

  private async attempt(delivery: DueDelivery, retryAt: Date, signal?: AbortSignal) {
    const attempts = delivery.attempts + 1;
    const { statusCode, error } = await this.send(delivery, signal);
    if (signal?.aborted && statusCode === null) return; // stopping: tried again at retryAt
    let outcome: AttemptOutcome;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      outcome = { kind: 'delivered', statusCode, at: this.deps.clock.now().toJSDate() };
    } else if (retryDelayMs(attempts, this.random) === undefined) {
      outcome = { kind: 'failed', statusCode, error };
    } else {
      outcome = { kind: 'retry', statusCode, error, at: retryAt };
    }
    await recordOutcome(this.deps.dataSource.manager, delivery, outcome);
  }

  /** One POST; the answer's status, or why there was none. The body of the answer is never read. */
  private async send(
    delivery: DueDelivery,
    signal?: AbortSignal,
  ): Promise<{ statusCode: number | null; error: string | null }> {
    const secret = await this.deps.secrets.open(
      delivery.workspaceId,
      webhookSecretName(delivery.webhookId),
      delivery.sealedSecret,
    );
    const timestamp = Math.floor(this.deps.clock.now().toSeconds());
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Engram-Webhooks/1',
          'Engram-Webhook-Id': delivery.webhookId,
          'Engram-Delivery-Id': delivery.deliveryId,
          'Engram-Timestamp': String(timestamp),
          'Engram-Signature': webhookSignature(secret, timestamp, delivery.body),
        },
        body: delivery.body,
        // A redirect is not a delivery: the receiver's URL is the one registered.
        redirect: 'manual',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      await response.body?.cancel().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}` };
    } catch (error) {
      if (timeout.aborted)
        return { statusCode: null, error: `no answer within ${this.timeoutMs} ms` };
      return { statusCode: null, error: describeNetworkError(error) };
    }
  }
}

/** The cause's code (ECONNREFUSED, ENOTFOUND…) rather than fetch's generic "fetch failed". */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message.slice(0, 200);
  return error instanceof Error ? error.message.slice(0, 200) : 'request failed';
}

/** The worker's delivery job: a dispatcher that runs while its lease is held. */
export function runWebhookDeliveries(
  deps: WebhookDeliveryDependencies,
  signal: AbortSignal,
  options: WebhookDeliveryOptions = {},
): Promise<void> {
  return new WebhookDispatcher(deps, options).run(signal);
}
