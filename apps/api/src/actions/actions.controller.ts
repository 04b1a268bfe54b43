import { randomUUID } from 'node:crypto';
import { Body, Controller, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import {
  actionDecider,
  deterministicId,
  userStream,
  type ActionCommand,
  type ActionStatus,
  type Clock,
} from '@engram/domain';
import { CLOCK } from '@engram/platform';
import { Commands } from '../commands/commands';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { UuidParam } from '../http/uuid-param';
import {
  AbortActionBody,
  ActionTransitionResponse,
  ConfirmActionBody,
  DEFAULT_ACTION_TTL_SECONDS,
  ExecuteActionBody,
  FailActionBody,
  ProposeActionBody,
  ProposeActionResponse,
} from './action.dto';

/** Operational memory: what the assistant proposed and did, whatever the channel. */
@ApiTags('agent')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/workspaces/:ws/users/:userId/actions')
export class ActionsController {
  constructor(
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

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
  async propose(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Body() body: ProposeActionBody,
    @Headers() headers: RequestHeaders,
  ): Promise<ProposeActionResponse> {
    const actionId = (body.actionId ?? randomUUID()).toLowerCase();
    // Derived from the action when not given, so that copies of a retried proposal agree on it.
    const traceId = body.traceId ?? deterministicId('trace', workspaceId, userId, actionId);
    const requiresConfirmation = body.requiresConfirmation ?? true;
    const now = this.clock.now().toUTC();
    const expiresAt = requiresConfirmation
      ? now.plus({ seconds: body.ttlSeconds ?? DEFAULT_ACTION_TTL_SECONDS }).toISO()!
      : undefined;
    const result = await this.commands.decide(
      userStream(workspaceId, userId, 'action', actionId),
      actionDecider,
      {
        type: 'ProposeAction',
        data: {
          actionId,
          tool: body.tool,
          ...(body.target ? { target: body.target } : {}),
          summary: body.summary,
          ...(body.input ? { input: body.input } : {}),
          channel: body.channel,
          requiresConfirmation,
          ...(expiresAt ? { expiresAt } : {}),
        },
      },
      {
        workspaceId,
        userId,
        traceId,
        channel: body.channel,
        causationId: actionId,
        correlationId: correlationIdOf(headers),
      },
      () => [deterministicId('action-proposed', workspaceId, userId, actionId)],
    );
    const first = result.history[0];
    const state = result.state;
    return {
      actionId,
      traceId: first?.metadata.traceId ?? traceId,
      status: state.status === 'absent' ? 'pending' : state.status,
      ...(state.status !== 'absent' && state.expiresAt ? { expiresAt: state.expiresAt } : {}),
      position: positionToJson(result.position),
    };
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
    const now = this.clock.now().toUTC().toISO()!;
    return this.transition(workspaceId, userId, actionId, headers, body.channel, 'confirmed', {
      type: 'ConfirmAction',
      channel: body.channel,
      now,
    });
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
    return this.transition(workspaceId, userId, actionId, headers, body.channel, 'executed', {
      type: 'ExecuteAction',
      channel: body.channel,
      result: body.result,
    });
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
    return this.transition(workspaceId, userId, actionId, headers, body.channel, 'aborted', {
      type: 'AbortAction',
      channel: body.channel,
      reason: body.reason,
    });
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
    return this.transition(workspaceId, userId, actionId, headers, undefined, 'failed', {
      type: 'FailAction',
      error: body.error,
    });
  }

  private async transition(
    workspaceId: string,
    userId: string,
    actionId: string,
    headers: RequestHeaders,
    channel: string | undefined,
    status: ActionStatus,
    command: ActionCommand,
  ): Promise<ActionTransitionResponse> {
    const result = await this.commands.decide(
      userStream(workspaceId, userId, 'action', actionId),
      actionDecider,
      command,
      { workspaceId, userId, channel, correlationId: correlationIdOf(headers) },
      undefined,
      { inheritTrace: true },
    );
    return { status, position: positionToJson(result.position) };
  }
}
