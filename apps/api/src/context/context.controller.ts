import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import type { Clock } from '@engram/domain';
import { CLOCK, LLM } from '@engram/platform';
import type { Llm } from '@engram/llm';
import { CONTEXT_READ_MODELS } from '@engram/projections';
import { IdentifierParam } from '../http/path-params';
import { ReadModels } from '../read-models/read-models';
import { assembleContext, type AgentContextAnswer } from './assemble-context';
import { readContextRows } from './context-reads';
import { ContextQuery } from './context.dto';
import { AgentContextResponse } from './context.response';
import { MemoryUsageRecorder } from './memory-usage.recorder';

/**
 * What an agent puts in its prompt on every turn: read models only (no replay, no LLM), in one
 * statement under the user's identity (one round trip), rendered within a token budget.
 */
@ApiTags('agent')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/workspaces/:ws/users/:userId/context')
export class ContextController {
  constructor(
    private readonly readModels: ReadModels,
    private readonly usage: MemoryUsageRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LLM) private readonly llm: Llm,
  ) {}

  @Get()
  @ApiOkResponse({ type: AgentContextResponse })
  async context(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Query() query: ContextQuery,
  ): Promise<AgentContextAnswer> {
    const owner = { workspaceId, userId };
    await this.readModels.catchUp(owner, CONTEXT_READ_MODELS, query);
    const identity = { ...owner, roles: ['agent'] as const };
    const rows = await readContextRows(
      (sql, params) => this.readModels.query(identity, sql, params),
      owner,
      query,
    );
    const context = assembleContext(rows, {
      now: this.clock.now().toUTC(),
      locale: query.locale,
      maxTokens: query.maxTokens,
      model: this.llm.model,
    });
    this.usage.record(workspaceId, userId, context.usedMemoryIds);
    return context;
  }
}
