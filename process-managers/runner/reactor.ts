import type { Event } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';

/**
 * A process manager: reacts to events with side effects (LLM calls, commands). Delivery is at least
 * once, so `react` must be idempotent: the commands it sends carry ids derived from the event.
 */
export type Reactor<E extends Event = Event> = Readonly<{
  name: string;
  /** The types of `E`: the runner feeds `react` these alone, which makes its signature true. */
  handles: readonly E['type'][];
  /** `signal` aborts when the worker stops: long waits end early (the event is tried again later). */
  react: (event: DecodedEvent<E>, signal?: AbortSignal) => Promise<void>;
}>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list of reactors
export type AnyReactor = Reactor<any>;

/** A reaction that cannot happen now (the LLM is down) and must be tried again later, in order. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}
