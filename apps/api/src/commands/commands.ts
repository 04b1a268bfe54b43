import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Clock, Decider, Event, EventMetadata } from '@engram/domain';
import { CLOCK, EVENT_STORE } from '@engram/platform';
import {
  EventCodec,
  handleCommand,
  type DecodedEvent,
  type EventStore,
  type HandleResult,
} from '@engram/event-store';

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

export type CommandOptions = Readonly<{
  /** Later steps of an aggregate (confirm, execute...) carry the trace id of the event that opened it. */
  inheritTrace?: boolean;
  usuallyOpensStream?: boolean;
  appendOnly?: boolean;
}>;

/**
 * The API's side of the one write path: builds the event metadata of a request and calls
 * `handleCommand`, as the worker's reactors and the CLI do with their own metadata.
 */
@Injectable()
export class Commands {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly codec: EventCodec,
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
    options: CommandOptions = {},
  ): Promise<HandleResult<E, State>> {
    const metadata = this.metadata(context);
    const withTrace = options.inheritTrace
      ? (history: readonly DecodedEvent<E>[]) => {
          const traceId = history[0]?.metadata.traceId;
          return traceId ? { ...metadata, traceId } : metadata;
        }
      : metadata;
    return handleCommand({ store: this.store, codec: this.codec }, streamId, decider, command, {
      metadata: withTrace,
      usuallyOpensStream: options.usuallyOpensStream ?? false,
      appendOnly: options.appendOnly ?? false,
      ...(eventIds ? { eventIds } : {}),
    });
  }
}
