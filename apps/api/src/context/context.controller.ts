import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import { isMemoryActive, type Clock } from '@engram/domain';
import { APP_DATA_SOURCE, CLOCK, LLM } from '@engram/platform';
import type { Llm } from '@engram/llm';
import { CONTEXT_READ_MODELS, recentPrefix } from '@engram/projections';
import { buildAgentContext, type AgentContext } from '@engram/prompt-blocks';
import type { DataSource } from 'typeorm';
import { toActionView } from '../actions/action-view';
import { IdentifierParam } from '../http/path-params';
import { ReadModels } from '../read-models/read-models';
import { readContextRows } from './context-reads';
import { ContextQuery } from './context.dto';
import { AgentContextResponse } from './context.response';
import { MemoryUsageRecorder } from './memory-usage.recorder';

/**
 * What an agent puts in its prompt on every turn: read models only (no replay, no LLM), in one
 * transaction under the user's identity, rendered within a token budget.
 */
@ApiTags('agent')
@ApiBearerAuth()
@Roles('agent')
@Controller('v1/workspaces/:ws/users/:userId/context')
export class ContextController {
  constructor(
    private readonly readModels: ReadModels,
    private readonly usage: MemoryUsageRecorder,
    @Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LLM) private readonly llm: Llm,
  ) {}

  @Get()
  @ApiOkResponse({ type: AgentContextResponse })
  async context(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Query() query: ContextQuery,
  ): Promise<AgentContext & { memoryStatus: string }> {
    await this.readModels.catchUp({ workspaceId, userId }, CONTEXT_READ_MODELS, query);
    const now = this.clock.now().toUTC();
    const read = await this.readModels.read(
      { workspaceId, userId, roles: ['agent'] },
      async (manager) => {
        const rows = await readContextRows(manager, { workspaceId, userId }, query);
        const { settings } = rows;
        const memoryStatus = !rows.agentEnabled
          ? 'agent_disabled'
          : settings && !settings.enabled
            ? 'user_disabled'
            : settings &&
                !isMemoryActive(
                  { enabled: true, pausedUntil: settings.pausedUntil?.toISOString() ?? null },
                  now.toISO()!,
                )
              ? 'user_paused'
              : 'enabled';
        return {
          ...rows,
          memoryStatus,
          memories: memoryStatus === 'enabled' ? rows.memories : [],
          card: memoryStatus === 'enabled' ? rows.card : null,
          actions: recentPrefix(rows.actions, {
            limit: 10,
            since: now.minus({ hours: 48 }).toJSDate(),
          }),
        };
      },
    );
    const context = buildAgentContext({
      locale: query.locale ?? read.policy.locale,
      timeZone: read.policy.timeZone,
      now,
      liveWindow: read.window.map((m) => ({
        messageId: m.messageId,
        role: m.role as 'user' | 'assistant',
        text: m.text,
        occurredAt: m.occurredAt.toISOString(),
        channel: m.channel,
      })),
      rollingSummary: read.session?.rollingSummary ?? '',
      memories: read.memories.map((m) => ({
        memoryId: m.memoryId,
        kind: m.kind,
        content: m.content ?? '',
        dueAt: m.dueAt?.toISOString() ?? null,
        lastUsedAt: m.lastUsedAt?.toISOString() ?? null,
        lastSeenAt: m.lastSeenAt.toISOString(),
        seenCount: m.seenCount,
      })),
      memoryDisabled:
        read.memoryStatus === 'enabled' ? undefined : (read.memoryStatus as 'user_disabled'),
      recentActions: read.actions.map(toActionView),
      identityCard: read.card?.markdown ?? '',
      maxTokens: query.maxTokens,
      model: this.llm.model,
    });
    this.usage.record(workspaceId, userId, context.usedMemoryIds);
    return { ...context, memoryStatus: read.memoryStatus };
  }
}
