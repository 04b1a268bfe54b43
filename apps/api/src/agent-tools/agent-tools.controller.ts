import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { CurrentPrincipal, Public, Roles, type Principal } from '@engram/auth';
import { renderTools } from '@engram/prompt-blocks';
import { IdentifierParam } from '../http/path-params';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { ReadQuery } from '../read-models/read-query';
import { AgentToolbox } from './agent-toolbox';
import {
  AnthropicToolResponse,
  McpToolResponse,
  OpenAiToolResponse,
  ToolsQuery,
} from './agent-tools.dto';

const arrayOf = (model: new () => object) => ({
  type: 'array' as const,
  items: { $ref: getSchemaPath(model) },
});

/** The agent tools over HTTP: their definitions for a model, and any of them called by name. */
@ApiTags('agent')
@ApiExtraModels(OpenAiToolResponse, AnthropicToolResponse, McpToolResponse)
@Controller()
export class AgentToolsController {
  constructor(private readonly toolbox: AgentToolbox) {}

  @Get('v1/tools')
  @Public()
  @ApiOkResponse({
    description: 'Every agent tool, in the shape the format names (default openai)',
    schema: {
      oneOf: [
        arrayOf(OpenAiToolResponse),
        arrayOf(AnthropicToolResponse),
        arrayOf(McpToolResponse),
      ],
    },
  })
  list(@Query() query: ToolsQuery): unknown[] {
    return renderTools(this.toolbox.definitions(), query.format ?? 'openai');
  }

  /**
   * A model's tool call routed as it is: no switch in the agent. Bad arguments are a 400 and
   * write nothing; `?minPosition` makes the reading tools read your writes.
   */
  @Post('v1/workspaces/:ws/users/:userId/tools/:name')
  @HttpCode(200)
  @Roles('agent')
  @ApiBearerAuth()
  @ApiBody({
    description: "The tool call's arguments as the model wrote them (GET /v1/tools: their schemas)",
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiOkResponse({
    description:
      "The tool's answer: the JSON of its HTTP route (get_context: GET …/context; record_message: POST …/messages; propose_action: POST …/actions; update_action: POST …/actions/{id}/{transition}; get_action: GET …/actions/{id}; list_pending_actions: GET …/actions?status=pending; recall_actions: POST …/tools/recall_actions; list_memories: {items}; forget_memory: {status, position}), with `text` beside it: what the model reads",
    schema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What the model reads' } },
      required: ['text'],
      additionalProperties: true,
    },
  })
  @ApiNotFoundResponse({ description: 'No tool of that name, or no such action or memory' })
  async call(
    @CurrentPrincipal() principal: Principal,
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('name') name: string,
    @Body() args: Record<string, unknown>,
    @Query() query: ReadQuery,
    @Headers() headers: RequestHeaders,
  ): Promise<Record<string, unknown>> {
    const { data, text } = await this.toolbox.call(name, args, {
      principal,
      workspaceId,
      userId,
      correlationId: correlationIdOf(headers),
      minPosition: query.minPosition,
    });
    return { ...(data as Record<string, unknown>), text };
  }
}
