import type { Decider, Event, EventMetadata } from '@engram/domain';
import type { DecodedEvent, HandleResult } from '@engram/event-store';

/**
 * The one command the API sends on the CommandBus: "run this decider on this stream". Controllers
 * build it from a validated request; `DecideHandler` reads, decides and appends with optimistic concurrency.
 */
export class Decide<Command = unknown, E extends Event = Event, State = unknown> {
  constructor(
    readonly streamId: string,
    readonly decider: Decider<Command, E, State>,
    readonly command: Command,
    readonly metadata: EventMetadata | ((history: readonly DecodedEvent<E>[]) => EventMetadata),
    readonly eventIds?: (events: readonly E[]) => readonly string[],
    readonly usuallyOpensStream = false,
  ) {}
}

export type Decided<E extends Event = Event, State = unknown> = HandleResult<E, State>;
