import type { DecodedEvent } from '@engram/event-store';

/**
 * A process manager: reacts to events with side effects (LLM calls, commands). Delivery is at least
 * once, so `react` must be idempotent: the commands it sends carry ids derived from the event.
 */
export type Reactor = Readonly<{
  name: string;
  handles: readonly string[];
  /** `signal` aborts when the worker stops: long waits end early (the event is tried again later). */
  react: (event: DecodedEvent, signal?: AbortSignal) => Promise<void>;
}>;

/** A reaction that cannot happen now (the LLM is down) and must be tried again later, in order. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}
