import { Body, Controller, Get, Headers, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import {
  agentMemoryDecider,
  policyDecider,
  workspaceStream,
  type MemoryPolicy,
} from '@engram/domain';
import { findMemoryPolicy, workspacePoliciesProjection } from '@engram/projections';
import { Commands } from '../commands/commands';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';
import { MemoryPolicyBody } from './memory-policy.dto';
import { ChangedMemoryPolicyResponse, MemoryPolicyResponse } from './memory-policy.response';

export class AgentMemoryBody {
  @ApiProperty()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;
}

export class AgentMemoryResponse {
  @ApiProperty() agentId!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() position!: number;
}

/** The workspace's memory policy and per-agent "Enable Memory" (admins of the workspace). */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('v1/workspaces/:ws')
export class PolicyController {
  constructor(
    private readonly readModels: ReadModels,
    private readonly commands: Commands,
  ) {}

  @Get('memory-policy')
  @ApiOkResponse({ type: MemoryPolicyResponse, description: 'The policy (defaults until changed)' })
  async get(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: ReadQuery,
  ): Promise<MemoryPolicy> {
    await this.readModels.catchUp(
      { workspaceId, userId: me.userId },
      [workspacePoliciesProjection.name],
      query,
    );
    return this.readModels.read(me, (manager) => findMemoryPolicy(manager, workspaceId));
  }

  /** Fields left out keep their current value; `autoApproveAbove: null` removes the threshold. */
  @Put('memory-policy')
  @ApiOkResponse({ type: ChangedMemoryPolicyResponse, description: 'The policy after the change' })
  async put(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Body() body: MemoryPolicyBody,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoryPolicy & { position: number }> {
    const result = await this.commands.decide(
      workspaceStream(workspaceId, 'policy', 'memory'),
      policyDecider,
      { type: 'ChangeMemoryPolicy', changes: body, changedBy: me.userId },
      { workspaceId, userId: me.userId, correlationId: correlationIdOf(headers) },
    );
    return { ...result.state, position: positionToJson(result.position) };
  }

  @Put('agents/:agentId/memory')
  @ApiOkResponse({ type: AgentMemoryResponse })
  async agentMemory(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('agentId', new IdentifierParam('agentId')) agentId: string,
    @CurrentPrincipal() me: Principal,
    @Body() body: AgentMemoryBody,
    @Headers() headers: RequestHeaders,
  ): Promise<AgentMemoryResponse> {
    const result = await this.commands.decide(
      workspaceStream(workspaceId, 'agent', agentId),
      agentMemoryDecider,
      { type: 'ToggleAgentMemory', agentId, enabled: body.enabled, changedBy: me.userId },
      { workspaceId, userId: me.userId, correlationId: correlationIdOf(headers) },
    );
    return { agentId, enabled: result.state.enabled, position: positionToJson(result.position) };
  }
}
