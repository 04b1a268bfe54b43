import {
  deterministicId,
  llmCallCause,
  sessionDecider,
  userStream,
  type MessageRecorded,
} from '@engram/domain';
import { handleCommand, type DecodedEvent } from '@engram/event-store';
import type { ConversationLine } from '@engram/llm';
import { findMessagesToSummarize, findSession, type Session } from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { followUpMetadata } from '../follow-up-metadata';
import { isBudgetSpent } from '../llm-usage/llm-budget';
import { deferLlmCall, recordLlmCall, type LlmWorkDone } from '../llm-usage/llm-ledger';
import { RetryLaterError, type Reactor } from '../runner/reactor';
import { committedRow } from '../runner/committed-row';
import { readThrough, rememberRecorded, type RecordedThrough } from '../runner/recorded-through';
import { waitForProjections } from '../runner/wait-for-projections';
import { isTransientLlmFailure } from '../transient-failure';

const READS = ['sessions', 'session_messages', 'workspace_policies'];

/**
 * Extends a session's rolling summary in batches: once at least `summaryBatch` messages have left the
 * live window unsummarized, exactly those messages are summarized in one LLM call. It waits for the
 * read models to reach the head of the store, so a summary it just recorded is seen before it decides
 * again (no LLM call is spent on a range already covered).
 */
export function summaryReactor(deps: ProcessManagerDependencies): Reactor<MessageRecorded> {
  const recorded: RecordedThrough = {};
  return {
    name: 'rolling_summary',
    handles: ['MessageRecorded'],
    react: async (event, signal) => {
      await extendRollingSummary(deps, event, signal, recorded);
    },
  };
}

/**
 * The summary due after one message of a session, for the reactor and for the deferred-work job
 * (which reacts again to the message that found the budget spent: whatever is due by then is
 * summarized). Past the user's daily budget it records that the work waits for the next day.
 * Without `recorded` (the job) it waits for the read models to reach the head of the store.
 */
export async function extendRollingSummary(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  signal?: AbortSignal,
  recorded?: RecordedThrough,
): Promise<LlmWorkDone> {
  const { workspaceId, userId } = message.metadata;
  const { sessionId, messageId } = message.event.data;
  const through = recorded
    ? await readThrough(deps, recorded, message.globalPosition)
    : await deps.store.headPosition();
  await waitForProjections(deps, READS, { workspaceId, userId }, through, signal);
  const manager = deps.dataSource.manager;
  const session =
    committedRow<Session>(deps, 'sessions', { workspaceId, userId, sessionId }, through) ??
    (await findSession(manager, workspaceId, userId, sessionId));
  if (!session) return 'nothing';
  const policy = await deps.policies.memoryPolicy(workspaceId, through);
  const due = session.messageCount - policy.liveWindow - session.summarizedCount;
  if (due < policy.summaryBatch) return 'nothing';
  const messages = await findMessagesToSummarize(
    manager,
    workspaceId,
    userId,
    sessionId,
    session.summarizedThroughPosition,
    due,
  );
  const last = messages.at(-1);
  if (!last) return 'nothing';
  const now = deps.clock.now().toUTC().toISO()!;
  const metadata = followUpMetadata(message, now);
  if (await isBudgetSpent(deps, { workspaceId, userId }, policy, signal)) {
    await deferLlmCall(deps, {
      purpose: 'summary',
      cause: llmCallCause.session(sessionId),
      metadata,
      timeZone: policy.timeZone,
      messageId,
      limit: policy.llmCallsPerUserPerDay!,
    });
    return 'deferred';
  }
  const stream = userStream(workspaceId, userId, 'session', sessionId);
  const outcome = await deps.llm.summarizer.summarize({
    previousSummary: session.rollingSummary,
    messages: messages.map((line): ConversationLine => ({
      role: line.role as ConversationLine['role'],
      text: line.text,
      occurredAt: line.occurredAt.toISOString(),
    })),
    locale: policy.locale,
  });
  const work = {
    purpose: 'summary' as const,
    cause: llmCallCause.summaryRange(sessionId, last.position),
    metadata,
    timeZone: policy.timeZone,
  };
  const remember = ({ position }: { position: bigint }) => {
    if (recorded) rememberRecorded(recorded, position);
  };
  if (!outcome.ok) {
    const failure = await handleCommand(
      deps,
      stream,
      sessionDecider,
      {
        type: 'RecordSummaryFailure',
        data: {
          sessionId,
          throughPosition: last.position,
          reason: outcome.reason,
          model: outcome.model,
        },
      },
      {
        metadata,
        eventIds: () => [deterministicId('summary-failure', stream, last.position, outcome.reason)],
      },
    );
    remember(failure);
    await recordLlmCall(deps, work, outcome);
    if (isTransientLlmFailure(outcome.reason)) {
      throw new RetryLaterError(`summary of ${sessionId}: ${outcome.reason}`);
    }
    return 'called';
  }
  const summary = await handleCommand(
    deps,
    stream,
    sessionDecider,
    {
      type: 'ExtendRollingSummary',
      data: {
        sessionId,
        throughPosition: last.position,
        messageCount: messages.length,
        summarizedCount: session.summarizedCount + messages.length,
        summary: outcome.value,
        model: outcome.model,
      },
    },
    { metadata, eventIds: () => [deterministicId('summary', stream, last.position)] },
  );
  remember(summary);
  await recordLlmCall(deps, work, outcome);
  return 'called';
}
