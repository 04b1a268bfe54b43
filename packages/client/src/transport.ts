import { EngramError, errorFromResponse } from './errors';

/** A bearer token (a JWT or a service key), or a function giving the current one (called per attempt). */
export type TokenSource = string | (() => string | Promise<string>);

export type RetryOptions = {
  /** Attempts in all, the first included (default 4). */
  readonly attempts: number;
  /** First backoff; doubled at each attempt, with jitter (default 200 ms). */
  readonly baseDelayMs: number;
  /** Longest backoff between two attempts (default 5 s). */
  readonly maxDelayMs: number;
  /** Longest `Retry-After` honoured; a longer one is given to the caller as the error (default 10 s). */
  readonly maxRetryAfterMs: number;
};

export const DEFAULT_RETRY: RetryOptions = {
  attempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 10_000,
};

/**
 * Which failures a request may be sent again after:
 * - `idempotent`: reads, PUTs and writes that carry their own id (a message, an action): after a network
 *   error, any 5xx, a 503 or a 429, since the API answers a repeat with the first result;
 * - `refused-only`: writes the API would refuse the second time (confirming twice is a conflict): only
 *   when the request provably did nothing (connection refused, 429, 503 with Retry-After).
 */
export type RetryPolicy = 'idempotent' | 'refused-only';

export type TransportOptions = {
  /** Where the API is, e.g. `http://localhost:3000`. */
  readonly baseUrl: string;
  readonly token: TokenSource;
  readonly retry?: Partial<RetryOptions>;
  /** Per attempt, the answer's body included (default 30 s; none for streams). */
  readonly timeoutMs?: number;
  /** Another fetch (a proxy, instrumentation); Node 20's global one by default. */
  readonly fetch?: typeof fetch;
};

export type HttpRequest = {
  readonly method: 'get' | 'put' | 'post' | 'delete';
  /** The path template of the OpenAPI document, e.g. `/v1/workspaces/{ws}/users/{userId}/context`. */
  readonly route: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  readonly retry: RetryPolicy;
  /** A body read as a stream (an export): no time limit on the whole answer, which may be long. */
  readonly stream?: boolean;
};

/** Sends requests to the API: auth, correlation id, retries with backoff, `Retry-After`, errors. */
export class Transport {
  private readonly retry: RetryOptions;
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;

  constructor(private readonly options: TransportOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    if (this.retry.attempts < 1) throw new RangeError('retry.attempts must be at least 1');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The answer's JSON body (`undefined` for an empty one); throws `EngramError` for anything but a 2xx. */
  async json<T>(request: HttpRequest): Promise<T> {
    const response = await this.send(request);
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** The raw 2xx answer, its body unread (streams). */
  async send(request: HttpRequest): Promise<Response> {
    const url = this.url(request);
    // One id for every attempt: the API's logs and events tie the retries together.
    const correlationId = globalThis.crypto.randomUUID();
    const described = { method: request.method.toUpperCase(), route: request.route, correlationId };
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.retry.attempts;
      let response: Response;
      try {
        response = await this.fetch(url, {
          method: described.method,
          headers: {
            authorization: `Bearer ${await this.token()}`,
            accept: 'application/json, application/x-ndjson',
            'x-correlation-id': correlationId,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body }),
          ...(request.stream
            ? {}
            : { signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000) }),
        });
      } catch (cause) {
        const retriable = request.retry === 'idempotent' || connectionRefused(cause);
        if (retriable && !last) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw new EngramError(
          `${described.method} ${request.route}: no answer (${describeCause(cause)})`,
          { status: 0, code: 'network_error', ...described, cause },
        );
      }
      if (response.ok) return response;
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      const error = errorFromResponse(
        response.status,
        await readBody(response),
        described,
        retryAfter,
      );
      if (last) throw error;
      if (response.status === 429 || response.status === 503) {
        // The API refused before doing anything: any request may come again, when it says.
        const waitMs = retryAfter === undefined ? this.backoff(attempt) : retryAfter * 1000;
        if (waitMs > this.retry.maxRetryAfterMs) throw error;
        await sleep(waitMs);
        continue;
      }
      if (response.status >= 500 && request.retry === 'idempotent') {
        await sleep(this.backoff(attempt));
        continue;
      }
      throw error;
    }
  }

  private url(request: HttpRequest): string {
    const path = request.route.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = request.params?.[name];
      if (value === undefined) throw new TypeError(`${request.route}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) query.set(name, String(value));
    }
    const search = query.toString();
    return `${this.baseUrl}${path}${search === '' ? '' : `?${search}`}`;
  }

  private async token(): Promise<string> {
    const token = this.options.token;
    return typeof token === 'string' ? token : await token();
  }

  /** Exponential, with full jitter over its upper half (clients retrying together spread out). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
