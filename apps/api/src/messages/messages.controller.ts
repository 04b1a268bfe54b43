import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Param, Post, Headers } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import { Inject } from '@nestjs/common';
import type { Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf } from '../http/request-context';
import { RecordMessageBody, RecordMessageResponse } from './record-message.dto';
import { RecordMessageCommand, type RecordMessageOutcome } from './record-message.command';

@ApiTags('agent')
@ApiBearerAuth()
@Controller('v1/workspaces/:ws/users/:userId/messages')
export class MessagesController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(202)
  @Roles('agent')
  @ApiAcceptedResponse({ type: RecordMessageResponse })
  async record(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Body() body: RecordMessageBody,
    @Headers() headers: Record<string, string | string[] | undefined>,
  ): Promise<RecordMessageResponse> {
    const messageId = (body.messageId ?? randomUUID()).toLowerCase();
    const traceId = body.traceId ?? randomUUID();
    const outcome = await this.commands.execute<RecordMessageCommand, RecordMessageOutcome>(
      new RecordMessageCommand(
        workspaceId,
        userId,
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
          occurredAt: body.occurredAt
            ? new Date(body.occurredAt).toISOString()
            : this.clock.now().toUTC().toISO()!,
        },
      ),
    );
    return { ...outcome, position: positionToJson(outcome.position) };
  }
}
