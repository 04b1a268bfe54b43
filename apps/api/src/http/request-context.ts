import { randomUUID } from 'node:crypto';
import { isIdentifier } from '@engram/domain';

export type Headers = Record<string, string | string[] | undefined>;

/** The correlation id of a request: the caller's X-Correlation-Id when it is a valid identifier, else a new one. */
export function correlationIdOf(headers: Headers): string {
  const value = headers['x-correlation-id'];
  const given = Array.isArray(value) ? value[0] : value;
  return isIdentifier(given) ? given : randomUUID();
}
