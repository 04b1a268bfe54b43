import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import { IdentifierParam } from '../http/path-params';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { MessageRecorder } from './message-recorder';
import { RecordMessageBody, RecordMessageResponse } from './record-message.dto';

@ApiTags('agent')
@ApiBearerAuth()
@Controller('v1/workspaces/:ws/users/:userId/messages')
export class MessagesController {
  constructor(private readonly recorder: MessageRecorder) {}

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
  record(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Body() body: RecordMessageBody,
    @Headers() headers: RequestHeaders,
  ): Promise<RecordMessageResponse> {
    return this.recorder.record({ workspaceId, userId }, body, correlationIdOf(headers));
  }
}
