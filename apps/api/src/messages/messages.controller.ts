import { randomUUID } from 'node:crypto';
import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import { deterministicId, messageDecider, userStream } from '@engram/domain';
import { Commands } from '../commands/commands';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { RecordMessageBody, RecordMessageResponse } from './record-message.dto';

@ApiTags('agent')
@ApiBearerAuth()
@Controller('v1/workspaces/:ws/users/:userId/messages')
export class MessagesController {
  constructor(private readonly commands: Commands) {}

  /** Records a message and answers before any LLM work (extraction and summaries run in the background). */
  @Post()
  @HttpCode(202)
  @Roles('agent')
  @ApiAcceptedResponse({
    type: RecordMessageResponse,
    description:
      'Recorded. `messageId` is an idempotency key: the same request again (same sessionId, role, channel, text and agentId) is answered with the first result and records nothing.',
  })
  @ApiConflictResponse({
    description:
      '`idempotency_conflict`: this messageId was already used with a different request (another sessionId, role, channel, text or agentId). traceId and occurredAt are not compared: a retry keeps the first ones.',
  })
  async record(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Body() body: RecordMessageBody,
    @Headers() headers: RequestHeaders,
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
        correlationId: correlationIdOf(headers),
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
