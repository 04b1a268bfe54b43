import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import {
  agentKeysProjection,
  agentSettingsProjection,
  findWorkspaceAgents,
  seenAgentsProjection,
} from '@engram/projections';
import { IdentifierParam } from '../http/path-params';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';
import { AgentListResponse, toAgentResponse } from './agents.dto';

/** Seed 002's memory settings panel: the workspace's agents, each with "Enable Memory". */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('v1/workspaces/:ws/agents')
export class AgentsController {
  constructor(private readonly readModels: ReadModels) {}

  @Get()
  @ApiOperation({
    summary: "The workspace's agents with memory on or off",
    description:
      'Every agent messages were recorded with (`agentId`), every agent an admin switched and every agent given a service key, by id.',
  })
  @ApiOkResponse({ type: AgentListResponse })
  async list(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: ReadQuery,
  ): Promise<AgentListResponse> {
    await this.readModels.catchUp(
      { workspaceId, userId: me.userId },
      [seenAgentsProjection.name, agentSettingsProjection.name, agentKeysProjection.name],
      query,
    );
    const agents = await this.readModels.read(me, (manager) =>
      findWorkspaceAgents(manager, workspaceId),
    );
    return { items: agents.map(toAgentResponse) };
  }
}
