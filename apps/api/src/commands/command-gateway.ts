import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import type { Clock, Decider, Event, EventMetadata } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import type { DecodedEvent } from '@engram/event-store';
import { Decide, type Decided } from './decide.command';

export type RequestContext = Readonly<{
  workspaceId: string;
  /** Owner of the stream (the user the event is about). */
  userId: string;
  traceId?: string | undefined;
  channel?: string | undefined;
  correlationId: string;
  causationId?: string | undefined;
  occurredAt?: string | undefined;
}>;

/** Builds the event metadata of a request and sends a `Decide` on the CommandBus. */
@Injectable()
export class CommandGateway {
  constructor(
    private readonly bus: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  metadata(context: RequestContext): EventMetadata {
    return {
      workspaceId: context.workspaceId,
      userId: context.userId,
      ...(context.traceId ? { traceId: context.traceId } : {}),
      ...(context.channel ? { channel: context.channel } : {}),
      causationId: context.causationId ?? randomUUID(),
      correlationId: context.correlationId,
      occurredAt: context.occurredAt ?? this.clock.now().toUTC().toISO()!,
    };
  }

  decide<Command, E extends Event, State>(
    streamId: string,
    decider: Decider<Command, E, State>,
    command: Command,
    context: RequestContext,
    eventIds?: (events: readonly E[]) => readonly string[],
    options: Readonly<{ inheritTrace?: boolean; usuallyOpensStream?: boolean }> = {},
  ): Promise<Decided<E, State>> {
    const metadata = this.metadata(context);
    // Later steps of an aggregate (confirm, execute...) carry the trace id of the event that opened it.
    const withTrace = options.inheritTrace
      ? (history: readonly DecodedEvent<E>[]) => {
          const traceId = history[0]?.metadata.traceId;
          return traceId ? { ...metadata, traceId } : metadata;
        }
      : metadata;
    return this.bus.execute<Decide<Command, E, State>, Decided<E, State>>(
      new Decide(streamId, decider, command, withTrace, eventIds, options.usuallyOpensStream),
    );
  }
}
