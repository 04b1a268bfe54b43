import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import {
  DomainConflictError,
  DomainNotFoundError,
  reportMemoryStatus,
  type Clock,
} from '@engram/domain';
import { CLOCK } from '@engram/platform';
import {
  findQueuedMemoryOwner,
  findReviewQueue,
  memoriesProjection,
  workspacePoliciesProjection,
  type MemoryRecord,
} from '@engram/projections';
import { Commands } from '../commands/commands';
import { IdentifierParam } from '../http/path-params';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { UuidParam } from '../http/uuid-param';
import { EVERY_OWNER, ReadModels } from '../read-models/read-models';
import { decideMemory, MemoryDecisionResponse, review, type Review } from './decide-memory';
import { decodeCursor, encodeCursor } from './review-cursor';
import {
  queueStatuses,
  RejectBody,
  ReviewQueueQuery,
  ReviewQueueResponse,
  type ReviewItem,
} from './review-queue.dto';

/** Seed 002's review panel: the workspace's pending candidates, approved or rejected by its admins. */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('v1/workspaces/:ws/memories')
export class ReviewController {
  constructor(
    private readonly readModels: ReadModels,
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Empty unless the workspace's reviewMode is admin (row-level security). */
  @Get()
  @ApiOkResponse({ type: ReviewQueueResponse })
  async queue(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: ReviewQueueQuery,
  ): Promise<ReviewQueueResponse> {
    // The queue spans the workspace's users, who live in every partition; the policy's review
    // mode decides (through row-level security) whether there is a queue at all.
    await this.readModels.catchUp(
      EVERY_OWNER,
      [memoriesProjection.name, workspacePoliciesProjection.name],
      query,
    );
    const limit = query.limit ?? 20;
    const rows = await this.readModels.read(me, (manager) =>
      findReviewQueue(manager, workspaceId, {
        statuses: queueStatuses(query.status ?? 'pending'),
        userId: query.userId,
        kind: query.kind,
        minConfidence: query.minConfidence,
        after: query.cursor ? decodeCursor(query.cursor) : undefined,
        limit: limit + 1,
      }),
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => this.toItem(row)),
      nextCursor:
        rows.length > limit && last
          ? encodeCursor({ createdAt: last.createdAt.toISOString(), memoryId: last.memoryId })
          : null,
    };
  }

  @Post(':memoryId/approve')
  @HttpCode(200)
  @ApiOkResponse({ type: MemoryDecisionResponse })
  approve(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('memoryId', new UuidParam('memoryId')) memoryId: string,
    @CurrentPrincipal() me: Principal,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoryDecisionResponse> {
    const decision = review('approve', { ...me, role: 'admin' });
    return this.decideInQueue(me, { workspaceId, memoryId, headers }, decision);
  }

  @Post(':memoryId/reject')
  @HttpCode(200)
  @ApiOkResponse({ type: MemoryDecisionResponse })
  reject(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('memoryId', new UuidParam('memoryId')) memoryId: string,
    @CurrentPrincipal() me: Principal,
    @Body() body: RejectBody,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoryDecisionResponse> {
    const decision = review('reject', { ...me, role: 'admin' }, body.reason);
    return this.decideInQueue(me, { workspaceId, memoryId, headers }, decision);
  }

  /**
   * Decides a memory pending in this admin's queue. Anything else (an unknown id, a memory of another
   * workspace, one of a workspace not in reviewMode admin, one decided, expired or deleted, even a
   * moment ago by someone else) gets the same 404 with the same body: a decision tells an admin
   * nothing about the memories outside the queue, not even that they exist.
   */
  private async decideInQueue(
    me: Principal,
    target: Readonly<{ workspaceId: string; memoryId: string; headers: RequestHeaders }>,
    decision: Review,
  ): Promise<MemoryDecisionResponse> {
    // From the queue's own read model: another (memory_owners) could still be behind what the admin saw.
    const owner = await this.readModels.read(me, (manager) =>
      findQueuedMemoryOwner(manager, target.workspaceId, target.memoryId),
    );
    if (!owner) throw notInQueue();
    try {
      return await decideMemory(
        this.commands,
        {
          workspaceId: target.workspaceId,
          memoryId: target.memoryId,
          ownerId: owner,
          correlationId: correlationIdOf(target.headers),
        },
        decision.command,
        decision.status,
      );
    } catch (error) {
      if (error instanceof DomainConflictError || error instanceof DomainNotFoundError) {
        throw notInQueue();
      }
      throw error;
    }
  }

  private toItem(row: MemoryRecord): ReviewItem {
    const now = this.clock.now().toMillis();
    return {
      memoryId: row.memoryId,
      userId: row.userId,
      kind: row.kind,
      content: row.content ?? '',
      confidence: row.confidence,
      ...reportMemoryStatus(row.status, row.rejectionReason),
      sourceMessageId: row.sourceMessageId,
      sourceExcerpt: row.sourceExcerpt ?? '',
      createdAt: row.createdAt.toISOString(),
      ageSeconds: Math.max(0, Math.round((now - row.createdAt.getTime()) / 1000)),
      ...(row.decidedAt ? { decidedAt: row.decidedAt.toISOString() } : {}),
    };
  }
}

function notInQueue(): NotFoundException {
  return new NotFoundException("This memory is not in the workspace's review queue");
}
