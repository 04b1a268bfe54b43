import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

/**
 * The outcome reason of an error thrown by the SDK (after its own retries). A connection error
 * that comes after the whole timeout is a timeout too: the SDK recognises its own abort by the
 * error's class, which is lost when fetch comes from another realm (as under jest's vm sandbox).
 */
export function failureReason(error: unknown, elapsedMs: number, timeoutMs: number): string {
  if (error instanceof APIConnectionTimeoutError) return 'timeout';
  if (error instanceof APIUserAbortError) return 'aborted';
  if (error instanceof APIConnectionError)
    return elapsedMs >= timeoutMs ? 'timeout' : 'unreachable';
  if (error instanceof APIError && typeof error.status === 'number') return `http_${error.status}`;
  const message = error instanceof Error ? error.message : String(error);
  return `error: ${message.slice(0, 200)}`;
}
