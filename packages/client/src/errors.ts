/** A refusal or failure of the Engram API, or of the network on the way to it. */
export class EngramError extends Error {
  override readonly name = 'EngramError';

  constructor(
    message: string,
    readonly details: {
      /** The HTTP status; 0 when no answer came (network error, timeout). */
      readonly status: number;
      /**
       * What went wrong, for programs: the code the API's message starts with
       * (`idempotency_conflict`), else its reason (`Not Found`), else `network_error`.
       */
      readonly code: string;
      /** The request's `X-Correlation-Id` (the API logs it and records it on the events it wrote). */
      readonly correlationId: string;
      readonly method: string;
      /** The path template, e.g. `/v1/workspaces/{ws}/users/{userId}/context`. */
      readonly route: string;
      /** Seconds the API asked to wait (`Retry-After` of a 503 or a 429). */
      readonly retryAfterSeconds?: number;
      readonly cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get status(): number {
    return this.details.status;
  }
  get code(): string {
    return this.details.code;
  }
  get correlationId(): string {
    return this.details.correlationId;
  }
}

/** The API answers `{ statusCode, error, message }`; some messages start with a code (`idempotency_conflict: …`). */
export function errorFromResponse(
  status: number,
  body: unknown,
  request: { method: string; route: string; correlationId: string },
  retryAfterSeconds: number | undefined,
): EngramError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message =
    typeof fields.message === 'string'
      ? fields.message
      : typeof body === 'string' && body !== ''
        ? body
        : `HTTP ${status}`;
  const reason = typeof fields.error === 'string' ? fields.error : `HTTP ${status}`;
  const code = /^([a-z][a-z0-9_]*):\s/.exec(message)?.[1] ?? reason;
  return new EngramError(`${request.method} ${request.route}: ${status} ${message}`, {
    status,
    code,
    ...request,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}
