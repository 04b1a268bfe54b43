import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { deterministicId, messageDecider, userStream } from '@engram/domain';
import type { Owner } from '@engram/projections';
import { Commands } from '../commands/commands';
import { positionToJson } from '../http/position';
import type { RecordMessageBody, RecordMessageResponse } from './record-message.dto';

/** Records a message: the route `POST …/messages` and the tool `record_message`. */
@Injectable()
export class MessageRecorder {
  constructor(private readonly commands: Commands) {}

  async record(
    { workspaceId, userId }: Owner,
    body: RecordMessageBody,
    correlationId: string,
  ): Promise<RecordMessageResponse> {
    const messageId = (body.messageId ?? randomUUID()).toLowerCase();
    // Derived, not random: a retry without traceId is answered with the trace of the first attempt.
    const traceId =
      body.traceId ?? deterministicId('message-trace', workspaceId, userId, messageId);
    // One stream per message, opened by this command: recording reads nothing first, and the event id
    // derives from the owner and the message id, so a retried request appends nothing (and another
    // user's id never clashes).
    const result = await this.commands.decide(
      userStream(workspaceId, userId, 'message', messageId),
      messageDecider,
      {
        type: 'RecordMessage',
        data: {
          messageId,
          sessionId: body.sessionId,
          role: body.role,
          channel: body.channel,
          text: body.text,
          ...(body.agentId ? { agentId: body.agentId } : {}),
        },
      },
      {
        workspaceId,
        userId,
        traceId,
        channel: body.channel,
        causationId: messageId,
        correlationId,
        occurredAt: body.occurredAt ? new Date(body.occurredAt).toISOString() : undefined,
      },
      () => [deterministicId('message', workspaceId, userId, messageId)],
      { usuallyOpensStream: true },
    );
    return {
      messageId,
      traceId: result.history[0]?.metadata.traceId ?? traceId,
      position: positionToJson(result.position),
    };
  }
}
