import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
} from 'openai';
import { failureReason } from './failure-reason';

describe('failureReason', () => {
  it.each([
    [new APIConnectionTimeoutError(), 10, 'timeout'],
    [new APIConnectionError({ message: 'Connection error.' }), 20000, 'timeout'],
    [new APIConnectionError({ message: 'Connection error.' }), 12, 'unreachable'],
    [new APIUserAbortError(), 5, 'aborted'],
    [new RateLimitError(429, undefined, 'slow down', new Headers()), 5, 'http_429'],
    [new InternalServerError(503, undefined, 'down', new Headers()), 5, 'http_503'],
    [APIError.generate(404, undefined, 'no such model', new Headers()), 5, 'http_404'],
    [new Error('boom'), 5, 'error: boom'],
  ])('%s after %d ms → %s', (error, elapsed, reason) => {
    expect(failureReason(error, elapsed, 20000)).toBe(reason);
  });
});
