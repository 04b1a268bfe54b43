import { randomUUID } from 'node:crypto';
import { isIdentifier } from '@engram/domain';

export const CORRELATION_ID_HEADER = 'x-correlation-id';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The correlation id of a request: the caller's `X-Correlation-Id`, else its `X-Request-Id`, when it is
 * an identifier (1-128 of [A-Za-z0-9._:-], so a header cannot smuggle text into the logs), else a new
 * UUID.
 */
export function correlationIdFrom(headers: Headers): string {
  for (const name of [CORRELATION_ID_HEADER, 'x-request-id']) {
    const value = headers[name];
    const given = Array.isArray(value) ? value[0] : value;
    if (isIdentifier(given)) return given;
  }
  return randomUUID();
}
