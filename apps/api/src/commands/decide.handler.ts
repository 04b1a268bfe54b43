import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventCodec, handleCommand, type EventStore } from '@engram/event-store';
import { EVENT_STORE } from '@engram/platform';
import { Decide, type Decided } from './decide.command';

@CommandHandler(Decide)
export class DecideHandler implements ICommandHandler<Decide, Decided> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly codec: EventCodec,
  ) {}

  execute(decide: Decide): Promise<Decided> {
    return handleCommand(
      { store: this.store, codec: this.codec },
      decide.streamId,
      decide.decider,
      decide.command,
      {
        metadata: decide.metadata,
        usuallyOpensStream: decide.usuallyOpensStream,
        ...(decide.eventIds ? { eventIds: decide.eventIds } : {}),
      },
    );
  }
}
