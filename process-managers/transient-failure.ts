/**
 * LLM failures that say nothing about the input (the service is down, slow or rate-limiting): the
 * work is retried later. Invalid answers are not retried: they are recorded and dropped.
 */
export function isTransientLlmFailure(reason: string): boolean {
  return (
    reason === 'timeout' ||
    reason === 'unreachable' ||
    reason === 'http_429' ||
    /^http_5\d\d$/.test(reason)
  );
}
