import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import { agentKeyDecider, agentKeyStream } from '@engram/domain';
import { agentKeysProjection, findAgentKeys } from '@engram/projections';
import { Commands } from '../commands/commands';
import { IdentifierParam } from '../http/path-params';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';
import { AgentKeyVerifier } from './agent-key.verifier';
import { mintAgentKey } from './agent-key-secret';
import {
  AgentKeyListResponse,
  CreateAgentKeyBody,
  CreatedAgentKeyResponse,
  toAgentKeyResponse,
} from './agent-keys.dto';

/** Service keys of an agent (admins of the workspace): create (the secret shown once), list, revoke. */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('v1/workspaces/:ws/agents/:agentId/keys')
export class AgentKeysController {
  constructor(
    private readonly commands: Commands,
    private readonly readModels: ReadModels,
    private readonly verifier: AgentKeyVerifier,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a service key for an agent',
    description:
      'Answers the key once: only its SHA-256 digest is kept. The agent sends it as `Authorization: Bearer <key>` and acts with the role agent in this workspace.',
  })
  @ApiCreatedResponse({ type: CreatedAgentKeyResponse })
  async create(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('agentId', new IdentifierParam('agentId')) agentId: string,
    @CurrentPrincipal() me: Principal,
    @Body() body: CreateAgentKeyBody,
    @Headers() headers: RequestHeaders,
  ): Promise<CreatedAgentKeyResponse> {
    const { keyId, key, digest } = mintAgentKey();
    const result = await this.commands.decide(
      agentKeyStream(workspaceId, keyId),
      agentKeyDecider,
      {
        type: 'IssueAgentKey',
        keyId,
        agentId,
        name: body.name?.trim(),
        digest,
        issuedBy: me.userId,
      },
      { workspaceId, userId: me.userId, correlationId: correlationIdOf(headers) },
    );
    await this.projected(workspaceId, me, result.position);
    return { id: keyId, key };
  }

  @Get()
  @ApiOperation({ summary: "An agent's service keys, without their secrets" })
  @ApiOkResponse({ type: AgentKeyListResponse })
  async list(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('agentId', new IdentifierParam('agentId')) agentId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: ReadQuery,
  ): Promise<AgentKeyListResponse> {
    await this.readModels.catchUp(
      { workspaceId, userId: me.userId },
      [agentKeysProjection.name],
      query,
    );
    const keys = await this.readModels.read(me, (manager) =>
      findAgentKeys(manager, workspaceId, agentId),
    );
    return { items: keys.map(toAgentKeyResponse) };
  }

  @Delete(':keyId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a service key',
    description:
      'Idempotent (revoking again answers 204); 404 for a key this agent does not have. Refused at once by this API process, by the others within 5 s.',
  })
  @ApiNoContentResponse({ description: 'Revoked' })
  async revoke(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('agentId', new IdentifierParam('agentId')) agentId: string,
    @Param('keyId', new IdentifierParam('keyId')) keyId: string,
    @CurrentPrincipal() me: Principal,
    @Headers() headers: RequestHeaders,
  ): Promise<void> {
    const result = await this.commands.decide(
      agentKeyStream(workspaceId, keyId),
      agentKeyDecider,
      { type: 'RevokeAgentKey', keyId, agentId, revokedBy: me.userId },
      { workspaceId, userId: me.userId, correlationId: correlationIdOf(headers) },
    );
    this.verifier.revoked(keyId);
    await this.projected(workspaceId, me, result.position);
  }

  /**
   * The list and the other API processes see the change once the read model holds it: waited for
   * (the usual bound), so that a key works as soon as its creation is answered. Past the bound the
   * change is recorded all the same (the event is the truth) and shows a moment later.
   */
  private async projected(workspaceId: string, me: Principal, position: bigint): Promise<void> {
    try {
      await this.readModels.awaitPosition(
        { workspaceId, userId: me.userId },
        [agentKeysProjection.name],
        position,
      );
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
    }
  }
}
