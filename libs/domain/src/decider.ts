import type { Event } from './event';

/** Pure business logic of one aggregate: no I/O, time and ids come in with the command. */
export type Decider<Command, E extends Event, State> = Readonly<{
  decide: (command: Command, state: State) => readonly E[];
  evolve: (state: State, event: E) => State;
  initialState: () => State;
}>;

export function foldEvents<E extends Event, State>(
  decider: Pick<Decider<unknown, E, State>, 'evolve' | 'initialState'>,
  events: Iterable<E>,
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event);
  return state;
}

/** A business rule refused the command; the message says why (it becomes a 409). */
export class DomainConflictError extends Error {
  override readonly name = 'DomainConflictError';
}

/**
 * A client's idempotency key (`messageId`, `actionId`) came back with another request than the one it
 * first named. A retry of the same request is answered with the first result; a different one is
 * refused rather than silently answered as if it had been recorded (a 409, as payment APIs do).
 */
export class IdempotencyConflictError extends DomainConflictError {
  constructor(key: string, id: string) {
    super(`idempotency_conflict: ${key} ${id} was already used with a different request`);
  }
}

/** The command names something that does not exist (it becomes a 404). */
export class DomainNotFoundError extends Error {
  override readonly name = 'DomainNotFoundError';
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
