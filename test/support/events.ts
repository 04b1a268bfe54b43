import {
  workspaceStream,
  type ActionAborted,
  type ActionExecuted,
  type ActionProposed,
  type DecidedBy,
  type DomainEventType,
  type EventOfType,
  type IdentityCardRegenerated,
  type LlmCallDeferred,
  type LlmCallRecorded,
  type LlmCallResumed,
  type MemoryPolicy,
  type MemoryCandidateDetected,
  type MemoryRejected,
  type MessageRecorded,
  type RollingSummaryExtended,
} from '@engram/domain';
import { ALICE, ROOT, type GivenEvent, type GivenOptions, type Owner } from './projection-spec';

export type { GivenOptions };

/**
 * The events the projection specs are given, typed: each builder fills the data a test does not
 * name with the same defaults everywhere, derived from the ids it does name.
 */

function given<Type extends DomainEventType>(
  type: Type,
  data: EventOfType<Type>['data'],
  options: GivenOptions,
): GivenEvent {
  // `data` is `Type`'s by the signature; TypeScript does not pair a generic type with its data.
  return { type, data, ...options } as GivenEvent;
}

const POLICY: DecidedBy = { kind: 'policy' };

/** A user's own decision, as the API records it. */
export function decidedByUser(owner: Owner = ALICE): DecidedBy {
  return { kind: 'person', userId: owner.userId, role: 'user' };
}

export const messageRecorded = (
  messageId: string,
  data: Partial<MessageRecorded['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'MessageRecorded',
    {
      messageId,
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      text: `text of ${messageId}`,
      ...data,
    },
    options,
  );

export const rollingSummaryExtended = (
  sessionId: string,
  data: Partial<RollingSummaryExtended['data']> &
    Pick<RollingSummaryExtended['data'], 'throughPosition'>,
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'RollingSummaryExtended',
    {
      sessionId,
      messageCount: 2,
      summarizedCount: 2,
      summary: `summary through ${data.throughPosition}`,
      model: 'model-a',
      ...data,
    },
    options,
  );

export const memoryDetected = (
  memoryId: string,
  data: Partial<MemoryCandidateDetected['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'MemoryCandidateDetected',
    {
      memoryId,
      kind: 'fact',
      content: `L'utilisateur préfère ${memoryId}.`,
      confidence: 0.7,
      sourceMessageId: `msg-${memoryId}`,
      sourceExcerpt: `Message about ${memoryId}`,
      sessionId: 's1',
      generation: 0,
      ...data,
    },
    options,
  );

export const memoryReinforced = (
  memoryId: string,
  confidence: number,
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'MemoryReinforced',
    { memoryId, sourceMessageId: `again-${memoryId}`, confidence },
    options,
  );

export const memoryApproved = (
  memoryId: string,
  by: DecidedBy = POLICY,
  options: GivenOptions = {},
): GivenEvent => given('MemoryApproved', { memoryId, by }, options);

export const memoryRejected = (
  memoryId: string,
  data: Partial<MemoryRejected['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'MemoryRejected',
    { memoryId, by: { kind: 'person', userId: 'root', role: 'admin' }, ...data },
    options,
  );

/** A pending candidate nobody reviewed in time. */
export const memoryExpired = (memoryId: string, options: GivenOptions = {}): GivenEvent =>
  given('MemoryExpired', { memoryId, by: { kind: 'expiry' }, reason: 'expired' }, options);

export const memoryEvicted = (memoryId: string, options: GivenOptions = {}): GivenEvent =>
  given('MemoryEvicted', { memoryId, reason: 'cap' }, options);

/** Deleted by its owner. */
export const memoryDeleted = (memoryId: string, options: GivenOptions = {}): GivenEvent =>
  given(
    'MemoryDeleted',
    { memoryId, by: decidedByUser(options.owner), reason: 'deleted' },
    options,
  );

/** Replaced by a newer approved memory (issue 20). */
export const memorySuperseded = (
  memoryId: string,
  supersededBy: string,
  options: GivenOptions = {},
): GivenEvent => given('MemorySuperseded', { memoryId, supersededBy }, options);

export const memoriesWiped = (generation: number, options: GivenOptions = {}): GivenEvent =>
  given('MemoriesWiped', { generation }, options);

export const memorySettingsChanged = (
  enabled: boolean,
  pausedUntil: string | null,
  options: GivenOptions = {},
): GivenEvent => given('MemorySettingsChanged', { enabled, pausedUntil }, options);

export const identityCardRegenerated = (
  basedOnPosition: string,
  data: Partial<IdentityCardRegenerated['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'IdentityCardRegenerated',
    {
      markdown: `# card @${basedOnPosition}`,
      memoryCount: 2,
      basedOnPosition,
      model: 'writer-1',
      ...data,
    },
    options,
  );

/** An offline extraction call of alice's on 1 June, with the fields a test names changed. */
export const llmCallRecorded = (
  data: Partial<LlmCallRecorded['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'LlmCallRecorded',
    {
      purpose: 'extraction',
      cause: 'message/m1',
      engine: 'offline-rules',
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 2,
      outcome: 'ok',
      day: '2026-06-01',
      ...data,
    },
    options,
  );

/** Alice's extraction of message m3 held back on 1 June by a budget of 2, until midnight in Paris. */
export const llmCallDeferred = (
  data: Partial<LlmCallDeferred['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'LlmCallDeferred',
    {
      purpose: 'extraction',
      cause: 'message/m3',
      messageId: 'm3',
      generation: 0,
      limit: 2,
      day: '2026-06-01',
      until: '2026-06-01T22:00:00.000Z',
      ...data,
    },
    options,
  );

/** The deferred extraction of alice's message m3 run, its deferral until `until` ended. */
export const llmCallResumed = (
  until: string,
  data: Partial<LlmCallResumed['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given('LlmCallResumed', { purpose: 'extraction', cause: 'message/m3', until, ...data }, options);

/** "Enable Memory" switched for an agent by an admin (`by`), on the agent's workspace stream. */
export const agentMemoryToggled = (
  agentId: string,
  enabled: boolean,
  by: Owner = ROOT,
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'AgentMemoryToggled',
    { agentId, enabled, changedBy: by.userId },
    { owner: by, streamId: workspaceStream(by.workspaceId, 'agent', agentId), ...options },
  );

/** A policy change by an admin (`by`), on the workspace's policy stream. */
export const memoryPolicyChanged = (
  policy: MemoryPolicy,
  by: Owner = ROOT,
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'MemoryPolicyChanged',
    { policy, changedBy: by.userId },
    { owner: by, streamId: workspaceStream(by.workspaceId, 'policy', 'memory'), ...options },
  );

/** Gmail reminder to Delphine asked on Telegram, to be confirmed; traced `trace-{actionId}`. */
export const actionProposed = (
  actionId: string,
  data: Partial<ActionProposed['data']> = {},
  options: GivenOptions = {},
): GivenEvent =>
  given(
    'ActionProposed',
    {
      actionId,
      tool: 'gmail_send',
      target: 'delphine@acme.fr',
      summary: 'Relance facture Q2',
      channel: 'telegram',
      requiresConfirmation: true,
      ...data,
    },
    { traceId: `trace-${actionId}`, ...options },
  );

export const actionConfirmed = (
  actionId: string,
  channel = 'web',
  options: GivenOptions = {},
): GivenEvent => given('ActionConfirmed', { actionId, channel }, options);

export const actionExecuted = (
  actionId: string,
  data: Partial<ActionExecuted['data']> = {},
  options: GivenOptions = {},
): GivenEvent => given('ActionExecuted', { actionId, ...data }, options);

export const actionAborted = (
  actionId: string,
  data: Partial<ActionAborted['data']> = {},
  options: GivenOptions = {},
): GivenEvent => given('ActionAborted', { actionId, ...data }, options);

export const actionFailed = (
  actionId: string,
  error: string,
  options: GivenOptions = {},
): GivenEvent => given('ActionFailed', { actionId, error }, options);

export const actionExpired = (
  actionId: string,
  expiresAt: string,
  options: GivenOptions = {},
): GivenEvent => given('ActionExpired', { actionId, expiresAt }, options);
