import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { messageDecider, userStream } from '@engram/domain';
import { EventCodec, handleCommand, type EventStore } from '@engram/event-store';
import { EVENT_STORE } from '@engram/platform';
import { RecordMessageCommand, type RecordMessageOutcome } from './record-message.command';

@CommandHandler(RecordMessageCommand)
export class RecordMessageHandler implements ICommandHandler<
  RecordMessageCommand,
  RecordMessageOutcome
> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly codec: EventCodec,
  ) {}

  async execute({
    workspaceId,
    userId,
    command,
    metadata,
  }: RecordMessageCommand): Promise<RecordMessageOutcome> {
    const { messageId } = command.data;
    // One stream per message: recording never reads the user's history, and the message id
    // doubles as the event id, so a retried request appends nothing.
    const result = await handleCommand(
      { store: this.store, codec: this.codec },
      userStream(workspaceId, userId, 'message', messageId),
      messageDecider,
      command,
      { metadata, eventIds: () => [messageId] },
    );
    const traceId = result.history[0]?.metadata.traceId ?? metadata.traceId ?? messageId;
    return { messageId, traceId, position: result.position };
  }
}
