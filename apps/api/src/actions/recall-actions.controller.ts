import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public, Roles } from '@engram/auth';
import { RECALL_ACTIONS_TOOL } from '@engram/prompt-blocks';
import { IdentifierParam } from '../http/path-params';
import { ReadQuery } from '../read-models/read-query';
import { ActionReads } from './action-reads';
import {
  RecallActionsBody,
  RecallActionsResponse,
  ToolDefinitionResponse,
} from './recall-actions.dto';

/** The read-only recall_actions tool: the LLM calls it for actions older than the recent-actions block. */
@ApiTags('agent')
@Controller()
export class RecallActionsController {
  constructor(private readonly reads: ActionReads) {}

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
    return (await this.reads.recall({ workspaceId, userId }, body, query)).data;
  }
}
