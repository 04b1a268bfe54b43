import {
  agentMemoryStatus,
  deterministicId,
  llmCallCause,
  memoryDecider,
  memoryIdFor,
  messageDecider,
  userStream,
  type MessageRecorded,
} from '@engram/domain';
import { handleCommand, type DecodedEvent } from '@engram/event-store';
import type { CandidateDecision, ConversationLine, ExtractedCandidate } from '@engram/llm';
import type { ProcessManagerDependencies } from '../dependencies';
import { followUpMetadata } from '../follow-up-metadata';
import { readExtractionInputs } from './extraction-reads';
import { isBudgetSpent } from '../llm-usage/llm-budget';
import { deferLlmCall, recordLlmCall, type LlmWorkDone } from '../llm-usage/llm-ledger';
import { RetryLaterError, type Reactor } from '../runner/reactor';
import { isTransientLlmFailure } from '../transient-failure';
import { waitForProjections } from '../runner/wait-for-projections';

// The policy and the agent's setting are read only once they reflect the message's position: a
// review mode changed just before a message decides that message's candidates.
const READS = [
  'session_messages',
  'memories',
  'memory_settings',
  'workspace_policies',
  'agent_settings',
];
const RECENT_CONTEXT = 10;

/**
 * After each human message: asks the extractor for 0 to 3 durable facts and records each as a memory
 * candidate caused by the message. Memory off, paused, or disabled for the agent: nothing is analysed.
 */
export function extractionReactor(deps: ProcessManagerDependencies): Reactor<MessageRecorded> {
  return {
    name: 'memory_extraction',
    handles: ['MessageRecorded'],
    react: async (event, signal) => {
      await extractFromMessage(deps, event, signal);
    },
  };
}

/**
 * The extraction of one message, for the reactor and for the deferred-work job. Past the user's
 * daily budget it calls nothing and records that the work waits for the next day (never a
 * RetryLaterError: that would hold every other owner of the partition). `heldAtGeneration`: run
 * again after a deferral, a message from before a wipe is no longer analysed.
 */
export async function extractFromMessage(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  signal?: AbortSignal,
  heldAtGeneration?: number,
): Promise<LlmWorkDone> {
  if (message.event.data.role !== 'user') return 'nothing';
  const { workspaceId, userId, occurredAt } = message.metadata;
  const { agentId, sessionId, messageId } = message.event.data;
  await waitForProjections(deps, READS, { workspaceId, userId }, message.globalPosition, signal);
  const agentEnabled =
    !agentId ||
    (await deps.policies.agentMemoryEnabled(workspaceId, agentId, message.globalPosition));
  // Read together, before knowing whether memory is on: one round trip at every message (memory
  // off or a budget spent is the exception; the window and the memories are then read for nothing).
  const { settings, window, memories } = await readExtractionInputs(
    deps.dataSource.manager,
    { workspaceId, userId },
    sessionId,
    RECENT_CONTEXT + 1,
  );
  const status = agentMemoryStatus(agentEnabled, settings, occurredAt);
  if (status !== 'enabled') return 'nothing';
  const generation = settings?.generation ?? 0;
  if (heldAtGeneration !== undefined && heldAtGeneration !== generation) return 'nothing';
  const policy = await deps.policies.memoryPolicy(workspaceId, message.globalPosition);
  const work = {
    purpose: 'extraction' as const,
    cause: llmCallCause.message(messageId),
    metadata: followUpMetadata(message, deps.clock.now().toUTC().toISO()!),
    timeZone: policy.timeZone,
  };
  if (await isBudgetSpent(deps, { workspaceId, userId }, policy, signal)) {
    await deferLlmCall(deps, {
      ...work,
      messageId,
      generation,
      limit: policy.llmCallsPerUserPerDay!,
    });
    return 'deferred';
  }
  const outcome = await deps.llm.extractor.extract({
    message: { role: 'user', text: message.event.data.text, occurredAt },
    locale: policy.locale,
    timeZone: policy.timeZone,
    recentMessages: window
      .filter((line) => line.messageId !== messageId)
      .slice(-RECENT_CONTEXT)
      .map((line): ConversationLine => ({
        role: line.role as ConversationLine['role'],
        text: line.text,
        occurredAt: line.occurredAt,
      })),
    existingMemories: memories.map((memory) => ({
      memoryId: memory.memoryId,
      kind: memory.kind,
      content: memory.content ?? '',
    })),
  });
  if (!outcome.ok) {
    await recordFailure(deps, message, outcome.reason, outcome.model);
    await recordLlmCall(deps, work, outcome);
    if (isTransientLlmFailure(outcome.reason)) {
      throw new RetryLaterError(`extraction of ${messageId}: ${outcome.reason}`);
    }
    return 'called';
  }
  // A decision may name only a memory the extractor was shown: any other id is the model's invention.
  const shown = new Set(memories.map((memory) => memory.memoryId));
  const recordCandidates = async () => {
    for (const candidate of outcome.value.slice(0, 3)) {
      const decision =
        candidate.decision && shown.has(candidate.decision.memoryId)
          ? candidate.decision
          : undefined;
      if (decision?.action === 'none') {
        await reinforceMemory(deps, message, decision, candidate.confidence);
        continue;
      }
      await recordCandidate(
        deps,
        message,
        candidate,
        { generation, shown },
        policy.reviewMode,
        policy.autoApproveAbove,
        decision?.memoryId,
      );
    }
  };
  // The ledger entry is written beside the candidates, not after them: the store's group commit
  // puts appends waiting together in one transaction, and the reaction waits for one commit, not
  // two in turn. Both are idempotent (ids derived from the message), so a reaction that fails after
  // one of them and runs again writes only the other; nothing reads them in a set order.
  await allWritten([recordCandidates(), recordLlmCall(deps, work, outcome)]);
  return 'called';
}

/** Waits for every write, then fails with the first failure: a retry never overlaps a write. */
async function allWritten(writes: readonly Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(writes)).find(
    (settled): settled is PromiseRejectedResult => settled.status === 'rejected',
  );
  if (failed) throw failed.reason;
}

const EXCERPT_LENGTH = 200;

function excerpt(text: string): string {
  return text.length <= EXCERPT_LENGTH ? text : `${text.slice(0, EXCERPT_LENGTH - 1)}…`;
}

async function recordCandidate(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  candidate: ExtractedCandidate,
  memories: Readonly<{ generation: number; shown: ReadonlySet<string> }>,
  mode: 'auto' | 'admin' | 'user',
  autoApproveAbove: number | undefined,
  supersedes: string | undefined,
): Promise<void> {
  const { workspaceId, userId, occurredAt } = message.metadata;
  const { messageId, sessionId } = message.event.data;
  const { generation, shown } = memories;
  const digest = await deps.memoryIdDigests.digestFor(workspaceId, userId);
  const memoryId = memoryIdFor(digest, workspaceId, userId, generation, candidate.content);
  // The older memory is superseded once this one is approved, now or by a reviewer
  // (`supersessionReactor`): under manual review, the context keeps the older one meanwhile.
  await handleCommand(
    deps,
    userStream(workspaceId, userId, 'memory', memoryId),
    memoryDecider,
    {
      type: 'DetectMemoryCandidate',
      data: {
        memoryId,
        kind: candidate.kind,
        content: candidate.content,
        confidence: candidate.confidence,
        ...(candidate.dueAt ? { dueAt: candidate.dueAt } : {}),
        sourceMessageId: messageId,
        sourceExcerpt: excerpt(message.event.data.text),
        sessionId,
        generation,
        ...(supersedes !== undefined && supersedes !== memoryId ? { supersedes } : {}),
      },
      review: { mode, autoApproveAbove },
    },
    {
      metadata: followUpMetadata(message, occurredAt),
      // A candidate's memory is new but when the message restates one word for word (same id):
      // appended expecting no stream without reading it first, the usual path when it exists. A
      // memory the extractor was shown (pending or approved) exists: the usual path at once, not
      // after an append refused (people repeat themselves: most candidates of the lag bench).
      usuallyOpensStream: !shown.has(memoryId),
      states: deps.memoryStates,
      // Keyed on the memory, not on the candidate's rank: a reaction re-run after a crash may get
      // other candidates (the read models moved on, the LLM answers differently); a rank-keyed id
      // would then name another memory's event and the append would be refused forever.
      eventIds: (events) =>
        events.map((e) =>
          deterministicId('extraction', workspaceId, userId, messageId, memoryId, e.type),
        ),
    },
  );
}

/** A message restating a memory in other words: that memory is reinforced, no second one made. */
async function reinforceMemory(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  decision: CandidateDecision,
  confidence: number,
): Promise<void> {
  const { workspaceId, userId, occurredAt } = message.metadata;
  const { messageId } = message.event.data;
  const { memoryId } = decision;
  await handleCommand(
    deps,
    userStream(workspaceId, userId, 'memory', memoryId),
    memoryDecider,
    { type: 'ReinforceMemory', data: { memoryId, sourceMessageId: messageId, confidence } },
    {
      metadata: followUpMetadata(message, occurredAt),
      states: deps.memoryStates,
      eventIds: (events) =>
        events.map((e) =>
          deterministicId('extraction', workspaceId, userId, messageId, memoryId, e.type),
        ),
    },
  );
}

async function recordFailure(
  deps: ProcessManagerDependencies,
  message: DecodedEvent<MessageRecorded>,
  reason: string,
  model: string,
): Promise<void> {
  const { workspaceId, userId } = message.metadata;
  const { messageId } = message.event.data;
  await handleCommand(
    deps,
    userStream(workspaceId, userId, 'message', messageId),
    messageDecider,
    { type: 'RecordExtractionFailure', data: { reason, model } },
    {
      metadata: followUpMetadata(message, deps.clock.now().toUTC().toISO()!),
      eventIds: () => [
        deterministicId('extraction-failure', workspaceId, userId, messageId, reason),
      ],
    },
  );
}
