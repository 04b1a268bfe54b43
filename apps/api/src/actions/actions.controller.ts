import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import { IdentifierParam } from '../http/path-params';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { UuidParam } from '../http/uuid-param';
import { ReadQuery } from '../read-models/read-query';
import { ActionCommands } from './action-commands';
import { ActionReads } from './action-reads';
import { ActionViewResponse } from './action-view.response';
import {
  AbortActionBody,
  ActionTransitionResponse,
  ConfirmActionBody,
  ExecuteActionBody,
  FailActionBody,
  ProposeActionBody,
  ProposeActionResponse,
} from './action.dto';
import { PendingActionsQuery, PendingActionsResponse } from './pending-actions.dto';

/** Operational memory: what the assistant proposed and did, whatever the channel. */
@ApiTags('agent')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/workspaces/:ws/users/:userId/actions')
export class ActionsController {
  constructor(
    private readonly actions: ActionCommands,
    private readonly reads: ActionReads,
  ) {}

  /** A user's pending actions, to confirm on another channel than the one they were proposed on. */
  @Get()
  @ApiOkResponse({ type: PendingActionsResponse })
  async pending(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Query() query: PendingActionsQuery,
  ): Promise<PendingActionsResponse> {
    return (await this.reads.pending({ workspaceId, userId }, query, query)).data;
  }

  @Get(':actionId')
  @ApiOkResponse({ type: ActionViewResponse })
  @ApiNotFoundResponse({ description: 'No such action for this user' })
  async get(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('actionId', new UuidParam('actionId')) actionId: string,
    @Query() query: ReadQuery,
  ): Promise<ActionViewResponse> {
    return (await this.reads.get({ workspaceId, userId }, actionId, query)).data;
  }

  @Post()
  @ApiCreatedResponse({
    type: ProposeActionResponse,
    description:
      'Proposed. `actionId` is an idempotency key: the same request again (same tool, target, summary, input, channel and requiresConfirmation) is answered with the first result (its status now) and records nothing.',
  })
  @ApiConflictResponse({
    description:
      '`idempotency_conflict`: this actionId was already used with a different request (another tool, target, summary, input, channel or requiresConfirmation). ttlSeconds and traceId are not compared: a retry keeps the first expiry and trace.',
  })
  propose(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Body() body: ProposeActionBody,
    @Headers() headers: RequestHeaders,
  ): Promise<ProposeActionResponse> {
    return this.actions.propose({ workspaceId, userId }, body, correlationIdOf(headers));
  }

  @Post(':actionId/confirm')
  @HttpCode(200)
  @ApiOkResponse({ type: ActionTransitionResponse })
  confirm(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('actionId', new UuidParam('actionId')) actionId: string,
    @Body() body: ConfirmActionBody,
    @Headers() headers: RequestHeaders,
  ): Promise<ActionTransitionResponse> {
    return this.actions.transition(
      { workspaceId, userId },
      actionId,
      {
        transition: 'confirm',
        channel: body.channel,
      },
      correlationIdOf(headers),
    );
  }

  @Post(':actionId/execute')
  @HttpCode(200)
  @ApiOkResponse({ type: ActionTransitionResponse })
  execute(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('actionId', new UuidParam('actionId')) actionId: string,
    @Body() body: ExecuteActionBody,
    @Headers() headers: RequestHeaders,
  ): Promise<ActionTransitionResponse> {
    return this.actions.transition(
      { workspaceId, userId },
      actionId,
      {
        transition: 'execute',
        channel: body.channel,
        result: body.result,
      },
      correlationIdOf(headers),
    );
  }

  @Post(':actionId/abort')
  @HttpCode(200)
  @ApiOkResponse({ type: ActionTransitionResponse })
  abort(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('actionId', new UuidParam('actionId')) actionId: string,
    @Body() body: AbortActionBody,
    @Headers() headers: RequestHeaders,
  ): Promise<ActionTransitionResponse> {
    return this.actions.transition(
      { workspaceId, userId },
      actionId,
      {
        transition: 'abort',
        channel: body.channel,
        reason: body.reason,
      },
      correlationIdOf(headers),
    );
  }

  @Post(':actionId/fail')
  @HttpCode(200)
  @ApiOkResponse({ type: ActionTransitionResponse })
  fail(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('actionId', new UuidParam('actionId')) actionId: string,
    @Body() body: FailActionBody,
    @Headers() headers: RequestHeaders,
  ): Promise<ActionTransitionResponse> {
    return this.actions.transition(
      { workspaceId, userId },
      actionId,
      {
        transition: 'fail',
        error: body.error,
      },
      correlationIdOf(headers),
    );
  }
}
