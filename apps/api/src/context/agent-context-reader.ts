import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@engram/domain';
import type { Llm } from '@engram/llm';
import { CLOCK, LLM } from '@engram/platform';
import { CONTEXT_READ_MODELS, type Owner } from '@engram/projections';
import { contextMessages, type ChatMessage } from '@engram/prompt-blocks';
import { ReadModels } from '../read-models/read-models';
import type { ReadQuery } from '../read-models/read-query';
import { assembleContext, type AgentContextAnswer } from './assemble-context';
import { readContextRows } from './context-reads';
import type { ContextArgs } from './context.dto';
import { MemoryUsageRecorder } from './memory-usage.recorder';

export type AgentContextMessagesAnswer = Readonly<{
  messages: ChatMessage[];
  tokens: AgentContextAnswer['tokens'];
  trimmed: AgentContextAnswer['trimmed'];
  usedMemoryIds: string[];
  memoryStatus: AgentContextAnswer['memoryStatus'];
}>;

/** A context answer and what a model reads of it (the system prompt). */
export type ContextReading = Readonly<{
  data: AgentContextAnswer | AgentContextMessagesAnswer;
  text: string;
}>;

/**
 * What an agent puts in its prompt on every turn, for the route `GET …/context` and the tool
 * `get_context`: read models only (no replay, no LLM), in one statement under the user's identity
 * (one round trip), rendered within a token budget.
 */
@Injectable()
export class AgentContextReader {
  constructor(
    private readonly readModels: ReadModels,
    private readonly usage: MemoryUsageRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LLM) private readonly llm: Llm,
  ) {}

  async read(owner: Owner, args: ContextArgs, read: ReadQuery): Promise<ContextReading> {
    await this.readModels.catchUp(owner, CONTEXT_READ_MODELS, read);
    const identity = { ...owner, roles: ['agent'] as const };
    const rows = await readContextRows(
      (sql, params) => this.readModels.query(identity, sql, params),
      owner,
      args,
    );
    const excluded = args.excludeMessageId?.toLowerCase();
    const context = assembleContext(
      excluded ? { ...rows, window: rows.window.filter((m) => m.messageId !== excluded) } : rows,
      {
        now: this.clock.now().toUTC(),
        locale: args.locale,
        maxTokens: args.maxTokens,
        model: this.llm.model,
      },
    );
    this.usage.record(owner.workspaceId, owner.userId, context.usedMemoryIds);
    if (args.format !== 'messages') return { data: context, text: context.systemPrompt };
    const messages = contextMessages(context);
    return {
      data: {
        messages,
        tokens: context.tokens,
        trimmed: context.trimmed,
        usedMemoryIds: context.usedMemoryIds,
        memoryStatus: context.memoryStatus,
      },
      text: messages[0]!.content,
    };
  }
}
