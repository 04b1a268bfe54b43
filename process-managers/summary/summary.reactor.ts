import {
  deterministicId,
  llmCallCause,
  sessionDecider,
  userStream,
  type MemoryPolicy,
  type MessageRecorded,
} from '@engram/domain';
import { handleCommand, type DecodedEvent } from '@engram/event-store';
import type { ConversationLine } from '@engram/llm';
import {
  checkpointsFor,
  findMessagesToSummarize,
  findSession,
  type Session,
} from '@engram/projections';
import type { ProcessManagerDependencies } from '../dependencies';
import { followUpMetadata } from '../follow-up-metadata';
import { isBudgetSpent } from '../llm-usage/llm-budget';
import { deferLlmCall, recordLlmCall, type LlmWorkDone } from '../llm-usage/llm-ledger';
import { RetryLaterError, type Reactor } from '../runner/reactor';
import { committedRow } from '../runner/committed-row';
import { readThrough, rememberRecorded, type RecordedThrough } from '../runner/recorded-through';
import { waitForProjections } from '../runner/wait-for-projections';
import { ReadThroughCache } from '../read-through-cache';
import { isTransientLlmFailure } from '../transient-failure';

const READS = ['sessions', 'session_messages', 'workspace_policies'];

/**
 * Extends a session's rolling summary in batches: once at least `summaryBatch` messages have left the
 * live window unsummarized, exactly those messages are summarized in one LLM call. It waits for the
 * read models to reach the head of the store, so a summary it just recorded is seen before it decides
 * again (no LLM call is spent on a range already covered).
 */
export function summaryReactor(deps: ProcessManagerDependencies): Reactor<MessageRecorded> {
  const kept: ReactorMemory = {
    recorded: {},
    counts: new ReadThroughCache(10_000, deps.committed?.seenForMs ?? 0),
  };
  return {
    name: 'rolling_summary',
    handles: ['MessageRecorded'],
    react: async (event, signal) => {
      await extendRollingSummary(deps, event, signal, kept);
    },
  };
}

/** A session's counts, all the summary decides on at most messages: no text is kept. */
type SessionCounts = Readonly<Pick<Session, 'messageCount' | 'summarizedCount'>>;

/**
 * What the reactor keeps between reactions: the last event it recorded, and the sessions' counts
 * read from a `sessions` read model another worker projects (`ReadThroughCache`: a worker catching
 * up reads a session once per checkpoint seen, not at each of its messages).
 */
type ReactorMemory = Readonly<{
  recorded: RecordedThrough;
  counts: ReadThroughCache<SessionCounts | null>;
}>;

/**
 * The summary due after one message of a session, for the reactor and for the deferred-work job
 * (which reacts again to the message that found the budget spent: whatever is due by then is
 * summarized). Past the user's daily budget it records that the work waits for the next day.
 * Without `kept` (the job) it waits for the read models to reach the head of the store.
 */
export async function extendRollingSummary(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  signal?: AbortSignal,
  kept?: ReactorMemory,
): Promise<LlmWorkDone> {
  const { workspaceId, userId } = message.metadata;
  const { sessionId } = message.event.data;
  const recorded = kept?.recorded;
  const through = recorded
    ? await readThrough(deps, recorded, message.globalPosition)
    : await deps.store.headPosition();
  await waitForProjections(deps, READS, { workspaceId, userId }, through, signal);
  const manager = deps.dataSource.manager;
  const key = { workspaceId, userId, sessionId };
  // Read at most once per reaction: the counts' read, when they were not kept, is the row's.
  let read: Promise<Readonly<Session> | null> | undefined;
  const session = () =>
    (read ??= Promise.resolve(
      committedRow<Session>(deps, 'sessions', key, through) ??
        findSession(manager, workspaceId, userId, sessionId),
    ));
  const counts = await sessionCounts(deps, kept, key, through, session);
  if (!counts) return 'nothing';
  const policy = await deps.policies.memoryPolicy(workspaceId, through);
  if (counts.messageCount - policy.liveWindow - counts.summarizedCount < policy.summaryBatch) {
    return 'nothing';
  }
  // Due: the whole row (its summary is not kept; read now if the counts were) decides what is summarized.
  const current = await session();
  if (!current) return 'nothing';
  return summarize(deps, message, signal, recorded, current, policy);
}

/**
 * The session's counts as of `through` or later: from the runner's row cache when the sessions
 * projection runs here, else kept per session for the positions its partition's checkpoint had
 * passed in the table before the read (the reactor only: the job waits for the head).
 */
async function sessionCounts(
  deps: ProcessManagerDependencies,
  kept: ReactorMemory | undefined,
  key: Readonly<{ workspaceId: string; userId: string; sessionId: string }>,
  through: bigint,
  session: () => Promise<Readonly<Session> | null>,
): Promise<SessionCounts | null> {
  const [partition] = checkpointsFor(['sessions'], key, deps.partitions ?? 1);
  const read = async (): Promise<SessionCounts | null> => {
    const row = await session();
    return row && { messageCount: row.messageCount, summarizedCount: row.summarizedCount };
  };
  if (!kept || !deps.committed || deps.committed.positionOf(partition!) !== undefined) {
    return read();
  }
  const committed = deps.committed;
  return kept.counts.get(
    JSON.stringify([key.workspaceId, key.userId, key.sessionId]),
    through,
    () => committed.tablePositionOf(partition!),
    read,
  );
}

/** The LLM call for the messages due, or its deferral past the budget, and its ledger entry. */
async function summarize(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  signal: AbortSignal | undefined,
  recorded: RecordedThrough | undefined,
  session: Readonly<Session>,
  policy: MemoryPolicy,
): Promise<LlmWorkDone> {
  const { workspaceId, userId } = message.metadata;
  const { sessionId, messageId } = message.event.data;
  const manager = deps.dataSource.manager;
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
