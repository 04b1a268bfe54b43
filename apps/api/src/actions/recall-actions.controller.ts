import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public, Roles } from '@engram/auth';
import type { Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import {
  actionsProjection,
  findMemoryPolicy,
  recallActions,
  workspacePoliciesProjection,
} from '@engram/projections';
import { RECALL_ACTIONS_TOOL, renderRecalledActions } from '@engram/prompt-blocks';
import { IdentifierParam } from '../http/path-params';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';
import { toActionView } from './action-view';
import {
  RecallActionsBody,
  RecallActionsResponse,
  ToolDefinitionResponse,
} from './recall-actions.dto';

const RECALL_LIMIT = 20;

/** The read-only recall_actions tool: the LLM calls it for actions older than the recent-actions block. */
@ApiTags('agent')
@Controller()
export class RecallActionsController {
  constructor(
    private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('v1/tools/recall_actions')
  @Public()
  @ApiOkResponse({
    type: ToolDefinitionResponse,
    description: 'The OpenAI tool definition to pass to the LLM',
  })
  definition(): typeof RECALL_ACTIONS_TOOL {
    return RECALL_ACTIONS_TOOL;
  }

  /** Reads the actions read model only: no event, no row is ever written here. */
  @Post('v1/workspaces/:ws/users/:userId/tools/recall_actions')
  @HttpCode(200)
  @Roles('agent')
  @ApiBearerAuth()
  @ApiOkResponse({ type: RecallActionsResponse })
  async recall(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Body() body: RecallActionsBody,
    // In the query, not the body: the body is the tool call's arguments as the LLM wrote them.
    @Query() query: ReadQuery,
  ): Promise<RecallActionsResponse> {
    await this.readModels.catchUp(
      { workspaceId, userId },
      [actionsProjection.name, workspacePoliciesProjection.name],
      query,
    );
    const since = this.clock
      .now()
      .minus({ days: body.days ?? 30 })
      .toJSDate();
    const { rows, policy } = await this.readModels.read(
      { workspaceId, userId, roles: ['agent'] },
      async (manager) => ({
        policy: await findMemoryPolicy(manager, workspaceId),
        rows: await recallActions(manager, workspaceId, userId, {
          ...(body.query ? { query: body.query } : {}),
          ...(body.status ? { status: body.status } : {}),
          since,
          limit: RECALL_LIMIT,
        }),
      }),
    );
    const actions = rows.map(toActionView);
    return {
      actions,
      text: renderRecalledActions(actions, { timeZone: policy.timeZone, locale: policy.locale }),
    };
  }
}
