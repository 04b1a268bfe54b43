import { agentMemoryStatus, type AgentMemoryStatus, type Locale } from '@engram/domain';
import { buildAgentContext, type AgentContext } from '@engram/prompt-blocks';
import type { DateTime } from 'luxon';
import { toActionView } from '../actions/action-view';
import type { ContextRows } from './context-reads';

export type AgentContextAnswer = AgentContext & { memoryStatus: AgentMemoryStatus };

export type ContextRequest = Readonly<{
  now: DateTime;
  locale?: Locale | undefined;
  maxTokens?: number | undefined;
  model: string;
}>;

/**
 * The context from the rows read: memories and the identity card only while memory is on for this
 * user and agent. Which recent actions are shown is the prompt blocks' rule (`selectRecentActions`);
 * the read only bounds how many it hands over. Timestamps pass through as the read rendered them
 * (ISO strings in UTC), down to the prompt blocks.
 */
export function assembleContext(rows: ContextRows, request: ContextRequest): AgentContextAnswer {
  const { now } = request;
  const memoryStatus = agentMemoryStatus(
    rows.agentEnabled,
    rows.settings && {
      enabled: rows.settings.enabled,
      pausedUntil: rows.settings.pausedUntil,
    },
    now.toISO()!,
  );
  const memoryOn = memoryStatus === 'enabled';
  const context = buildAgentContext({
    locale: request.locale ?? rows.policy.locale,
    timeZone: rows.policy.timeZone,
    now,
    liveWindow: rows.window.map((m) => ({
      messageId: m.messageId,
      role: m.role as 'user' | 'assistant',
      text: m.text,
      occurredAt: m.occurredAt,
      channel: m.channel,
    })),
    rollingSummary: rows.session?.rollingSummary ?? '',
    memories: (memoryOn ? rows.memories : []).map((m) => ({
      memoryId: m.memoryId,
      kind: m.kind,
      content: m.content ?? '',
      dueAt: m.dueAt,
      lastUsedAt: m.lastUsedAt,
      lastSeenAt: m.lastSeenAt,
      seenCount: m.seenCount,
    })),
    memoryDisabled: memoryOn ? undefined : memoryStatus,
    recentActions: rows.actions.map(toActionView),
    identityCard: memoryOn ? (rows.card?.markdown ?? '') : '',
    maxTokens: request.maxTokens,
    model: request.model,
  });
  return { ...context, memoryStatus };
}
