import {
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import {
  deterministicId,
  memoryProfileDecider,
  userStream,
  type MemoryPolicy,
} from '@engram/domain';
import { findMemoryPolicy } from '@engram/projections';
import { decideMemory, MemoryDecisionResponse, review, type Review } from './decide-memory';
import { RejectBody } from './review-queue.dto';
import { Commands } from '../commands/commands';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { UuidParam } from '../http/uuid-param';
import { ReadModels } from '../read-models/read-models';
import { MemoryListResponse, MyMemoriesQuery, toMemoryResponse } from './memory.dto';
import { UserMemories } from './user-memories';

export class WipeResponse {
  @ApiProperty({ description: 'Memories detected from now on belong to this generation' })
  generation!: number;
  @ApiProperty() position!: number;
}

/** The caller's own memories: read, delete one, wipe all. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/memories')
export class MyMemoriesController {
  constructor(
    private readonly readModels: ReadModels,
    private readonly commands: Commands,
    private readonly memories: UserMemories,
  ) {}

  @Get()
  @ApiOkResponse({ type: MemoryListResponse })
  async list(
    @CurrentPrincipal() me: Principal,
    @Query() query: MyMemoriesQuery,
  ): Promise<MemoryListResponse> {
    const { rows, policy } = await this.memories.list(me, me, query, query);
    return {
      items: rows.map(toMemoryResponse),
      nextCursor: null,
      canReview: usersReviewTheirOwn(policy),
    };
  }

  @Delete(':memoryId')
  @ApiOkResponse({ type: MemoryDecisionResponse })
  delete(
    @CurrentPrincipal() me: Principal,
    @Param('memoryId', new UuidParam('memoryId')) memoryId: string,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoryDecisionResponse> {
    return this.memories.forget(
      me,
      memoryId,
      { kind: 'person', userId: me.userId, role: 'user' },
      correlationIdOf(headers),
    );
  }

  /** In reviewMode user, the user approves their own candidates. */
  @Post(':memoryId/approve')
  @HttpCode(200)
  @ApiOkResponse({ type: MemoryDecisionResponse })
  approve(
    @CurrentPrincipal() me: Principal,
    @Param('memoryId', new UuidParam('memoryId')) memoryId: string,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoryDecisionResponse> {
    return this.reviewOwn(me, memoryId, headers, review('approve', { ...me, role: 'user' }));
  }

  @Post(':memoryId/reject')
  @HttpCode(200)
  @ApiOkResponse({ type: MemoryDecisionResponse })
  reject(
    @CurrentPrincipal() me: Principal,
    @Param('memoryId', new UuidParam('memoryId')) memoryId: string,
    @Body() body: RejectBody,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoryDecisionResponse> {
    return this.reviewOwn(
      me,
      memoryId,
      headers,
      review('reject', { ...me, role: 'user' }, body.reason),
    );
  }

  private async reviewOwn(
    me: Principal,
    memoryId: string,
    headers: RequestHeaders,
    decision: Review,
  ): Promise<MemoryDecisionResponse> {
    await this.requireUserReview(me);
    return decideMemory(
      this.commands,
      {
        workspaceId: me.workspaceId,
        ownerId: me.userId,
        memoryId,
        correlationId: correlationIdOf(headers),
      },
      decision.command,
      decision.status,
    );
  }

  private async requireUserReview(me: Principal): Promise<void> {
    const policy = await this.readModels.read(me, (manager) =>
      findMemoryPolicy(manager, me.workspaceId),
    );
    if (!usersReviewTheirOwn(policy)) {
      throw new ForbiddenException(
        `Users review their own memories only in reviewMode user; this workspace uses ${policy.reviewMode}`,
      );
    }
  }

  /** Purges every memory and resets the identity card; the conversation history stays. */
  @Post('wipe')
  @HttpCode(200)
  @ApiOkResponse({ type: WipeResponse })
  async wipe(
    @CurrentPrincipal() me: Principal,
    @Headers() headers: RequestHeaders,
  ): Promise<WipeResponse> {
    const correlationId = correlationIdOf(headers);
    const result = await this.commands.decide(
      userStream(me.workspaceId, me.userId, 'profile', 'memory'),
      memoryProfileDecider,
      { type: 'WipeMemories' },
      { workspaceId: me.workspaceId, userId: me.userId, correlationId },
      () => [deterministicId('wipe', me.workspaceId, me.userId, correlationId)],
    );
    return { generation: result.state.generation, position: positionToJson(result.position) };
  }
}

/** Users approve or reject their own candidates only when the workspace reviews in mode user. */
function usersReviewTheirOwn(policy: MemoryPolicy): boolean {
  return policy.reviewMode === 'user';
}
