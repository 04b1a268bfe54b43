/**
 * Generated from the API's OpenAPI document by packages/client/scripts/generate-api-types.ts: do not
 * edit. `UPDATE_GOLDEN=1 npx jest test/e2e/client-drift.e2e.spec.ts` regenerates it; the same test
 * fails when it differs from what the API serves.
 */

export type RecordMessageBody = {
  /** Idempotency key; generated when absent */
  messageId?: string;
  sessionId: string;
  role: 'user' | 'assistant';
  channel: string;
  text: string;
  agentId?: string;
  traceId?: string;
  /** When it was said (default: now). ISO-8601, from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (in UTC) */
  occurredAt?: string;
};

export type RecordMessageResponse = {
  messageId: string;
  /** The trace of the message: the one given, or one derived from the message id (a retry gets the first one) */
  traceId: string;
  /** Global position of the event; pass it as minPosition to read your write */
  position: number;
};

export type LiveWindowMessage = {
  messageId: string;
  role: 'user' | 'assistant';
  channel: string;
  text: string;
  occurredAt: string;
};

export type SessionResponse = {
  sessionId: string;
  messageCount: number;
  /** Messages condensed into the rolling summary */
  summarizedCount: number;
  rollingSummary: string;
  /** The last messages, verbatim, oldest first */
  liveWindow: Array<LiveWindowMessage>;
};

export type MyStatsResponse = {
  eventCount: number;
  messageCount: number;
  firstEventAt: string | null;
  lastEventAt: string | null;
  /** Global position of the last event counted */
  lastPosition: number;
};

export type MemoryResponse = {
  memoryId: string;
  kind: 'identity' | 'preference' | 'ongoing' | 'commitment' | 'fact' | 'context';
  /** null once deleted */
  content: string | null;
  confidence: number;
  /** A candidate nobody reviewed before pendingTtlDays is rejected, reason `expired` */
  status: 'pending' | 'approved' | 'rejected' | 'deleted' | 'evicted' | 'superseded';
  /** Why it was rejected: the reviewer’s reason, or `expired` (nobody reviewed it in time) */
  reason?: string;
  sourceMessageId: string;
  /** The beginning of that message; null once deleted */
  sourceExcerpt: string | null;
  sessionId: string;
  dueAt?: string;
  createdAt: string;
  decidedAt?: string;
  /** { kind: person, userId, role } | { kind: policy } | { kind: expiry } */
  decidedBy?: {
    [key: string]: unknown;
  };
  /** The same as `reason`, for earlier clients */
  rejectionReason?: string;
  lastSeenAt: string;
  lastUsedAt?: string;
  seenCount: number;
  /** Status `superseded`: the newer memory that replaced it (out of the agent context, kept as history) */
  supersededBy?: string;
  /** The memory this one replaces once approved (a contradiction: moved, changed job…) */
  supersedes?: string;
};

export type MemoryListResponse = {
  items: Array<MemoryResponse>;
  nextCursor?: string | null;
  /** Whether you approve or reject your pending memories yourself (POST …/{id}/approve · /reject): the workspace reviews in mode user */
  canReview: boolean;
};

export type MemoryDecisionResponse = {
  status: string;
  position: number;
};

export type RejectBody = {
  reason?: string;
};

export type WipeResponse = {
  /** Memories detected from now on belong to this generation */
  generation: number;
  position: number;
};

export type ReviewItem = {
  memoryId: string;
  userId: string;
  kind: 'identity' | 'preference' | 'ongoing' | 'commitment' | 'fact' | 'context';
  content: string;
  confidence: number;
  status: 'pending' | 'rejected';
  /** Why it was rejected */
  reason?: 'expired';
  sourceMessageId: string;
  /** The beginning of the message it came from */
  sourceExcerpt: string;
  createdAt: string;
  /** Seconds since it was detected */
  ageSeconds: number;
  decidedAt?: string;
};

export type ReviewQueueResponse = {
  items: Array<ReviewItem>;
  nextCursor?: string | null;
};

export type IdentityCardResponse = {
  /** Markdown synthesis of the approved memories; empty before the first one */
  markdown: string;
  memoryCount: number;
  generatedAt?: string | null;
  model?: string | null;
};

export type MemoryPolicyResponse = {
  reviewMode: 'auto' | 'admin' | 'user';
  /** Absent: no threshold */
  autoApproveAbove?: number;
  pendingTtlDays: number;
  liveWindow: number;
  summaryBatch: number;
  userMemoryCap: number;
  timeZone: string;
  locale: 'fr' | 'en';
  /** Absent: no budget */
  llmCallsPerUserPerDay?: number;
};

export type MemoryPolicyBody = {
  /** auto (default): approved at once; admin: admins review; user: each user reviews */
  reviewMode?: 'auto' | 'admin' | 'user';
  /** In admin/user mode, candidates at least this confident are approved at once */
  autoApproveAbove?: number | null;
  /** Days a candidate waits for a review; then it is rejected automatically (status rejected, reason expired: seed 002) */
  pendingTtlDays?: number;
  liveWindow?: number;
  summaryBatch?: number;
  /** Active (pending and approved) memories per user. Past it, the least recently used fact approved automatically (the policy) or by its user is evicted; a memory an admin approved is never evicted (seed 002: approved memories never expire unless deleted), nor any other kind, so the cap may be exceeded */
  userMemoryCap?: number;
  timeZone?: string;
  locale?: 'fr' | 'en';
  /** Extraction and summary calls per user per day (in timeZone); past it that work waits until the next day, recorded and shown to the user (GET /v1/me/llm-usage). Absent from the policy, or null: no budget (the default) */
  llmCallsPerUserPerDay?: number | null;
};

export type ChangedMemoryPolicyResponse = {
  reviewMode: 'auto' | 'admin' | 'user';
  /** Absent: no threshold */
  autoApproveAbove?: number;
  pendingTtlDays: number;
  liveWindow: number;
  summaryBatch: number;
  userMemoryCap: number;
  timeZone: string;
  locale: 'fr' | 'en';
  /** Absent: no budget */
  llmCallsPerUserPerDay?: number;
  /** Global position of the change: pass it as minPosition to read it back */
  position: number;
};

export type AgentMemoryBody = {
  enabled: boolean;
};

export type AgentMemoryResponse = {
  agentId: string;
  enabled: boolean;
  position: number;
};

export type AgentResponse = {
  agentId: string;
  /** "Enable Memory": true unless an admin switched it off (PUT …/agents/{agentId}/memory) */
  memoryEnabled: boolean;
  /** Its first recorded message (null for an agent only switched, never seen) */
  firstSeenAt: string | null;
  /** Its latest recorded message */
  lastSeenAt: string | null;
  /** Messages recorded with this agentId */
  messageCount: number;
  /** When memory was last switched (null: never) */
  updatedAt: string | null;
  /** The admin who last switched it */
  updatedBy: string | null;
};

export type AgentListResponse = {
  items: Array<AgentResponse>;
};

export type MemorySettingsResponse = {
  enabled: boolean;
  pausedUntil: string | null;
  status: 'enabled' | 'disabled' | 'paused';
  /** Position of the change (on PUT) */
  position?: number;
};

export type MemorySettingsBody = {
  /** Off: messages are still recorded, nothing is extracted */
  enabled: boolean;
  /** No extraction until then; null or absent lifts the pause. ISO-8601, from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (in UTC) */
  pausedUntil?: string | null;
};

export type ActionStepResponse = {
  /** confirmed, executed, aborted, failed, expired */
  status: string;
  channel: string | null;
  at: string;
};

export type ActionViewResponse = {
  actionId: string;
  traceId?: string | null;
  tool: string;
  target: string | null;
  summary: string;
  status: 'pending' | 'confirmed' | 'executed' | 'aborted' | 'failed' | 'expired';
  /** The channel the action was asked on */
  requestedVia: string;
  steps: Array<ActionStepResponse>;
  createdAt: string;
  expiresAt: string | null;
};

export type PendingActionsResponse = {
  /** Newest first */
  items: Array<ActionViewResponse>;
  nextCursor?: string | null;
};

export type ProposeActionBody = {
  /** Idempotency key; generated when absent */
  actionId?: string;
  traceId?: string;
  tool: string;
  target?: string;
  summary: string;
  input?: {
    [key: string]: unknown;
  };
  channel: string;
  /** false: the action starts confirmed */
  requiresConfirmation?: boolean;
  /** A pending action expires after this many seconds */
  ttlSeconds?: number;
};

export type ProposeActionResponse = {
  actionId: string;
  traceId: string;
  status: 'pending' | 'confirmed' | 'executed' | 'aborted' | 'failed' | 'expired';
  expiresAt?: string;
  position: number;
};

export type ConfirmActionBody = {
  channel: string;
};

export type ActionTransitionResponse = {
  status: 'pending' | 'confirmed' | 'executed' | 'aborted' | 'failed' | 'expired';
  position: number;
};

export type ExecuteActionBody = {
  channel?: string;
  result?: {
    [key: string]: unknown;
  };
};

export type AbortActionBody = {
  channel?: string;
  reason?: string;
};

export type FailActionBody = {
  error: string;
};

export type ToolFunctionResponse = {
  name: string;
  description: string;
  /** JSON schema */
  parameters: {
    [key: string]: unknown;
  };
};

export type ToolDefinitionResponse = {
  type: 'function';
  function: ToolFunctionResponse;
};

export type RecallActionsBody = {
  /** Text searched in the tool name and the action content (accent- and case-insensitive) */
  query?: string;
  status?: 'pending' | 'confirmed' | 'executed' | 'aborted' | 'failed' | 'expired';
  days?: number;
};

export type RecallActionsResponse = {
  /** Matching actions, newest first (at most 20) */
  actions: Array<ActionViewResponse>;
  /** The same, rendered for the LLM */
  text: string;
};

export type ActivityEventResponse = {
  type: string;
  at: string;
  channel?: string;
  /** One line in the answer’s language (Content-Language) */
  summary: string;
};

export type ActivityGroupResponse = {
  /** Absent for an event without a trace (a group of one) */
  traceId?: string;
  /** The action the group is about, else its first event's summary */
  title: string;
  /** Distinct, in order of appearance */
  channels: Array<string>;
  firstAt: string;
  lastAt: string;
  /** Oldest first */
  events: Array<ActivityEventResponse>;
};

export type ActivityResponse = {
  /** Groups newest first (by their first event); one group per trace, an event without a trace is a group of one */
  items: Array<ActivityGroupResponse>;
  nextCursor?: string | null;
};

export type LiveWindowMessageResponse = {
  messageId: string;
  role: 'user' | 'assistant';
  /** Verbatim */
  text: string;
  occurredAt: string;
  channel: string;
};

export type ContextMemoryResponse = {
  memoryId: string;
  content: string;
  dueAt: string | null;
};

export type ContextMemoriesByType = {
  identity?: Array<ContextMemoryResponse>;
  preference?: Array<ContextMemoryResponse>;
  ongoing?: Array<ContextMemoryResponse>;
  commitment?: Array<ContextMemoryResponse>;
  fact?: Array<ContextMemoryResponse>;
  context?: Array<ContextMemoryResponse>;
};

export type ContextMemories = {
  byType: ContextMemoriesByType;
};

export type ContextTokens = {
  /** Tokens of the system prompt */
  used: number;
  /** maxTokens, or null */
  budget: number | null;
  tokenizer: 'o200k_base' | 'cl100k_base';
};

export type ContextTrimmed = {
  /** Live-window messages left out, oldest first */
  liveWindowMessages: number;
  /** Memories left out, least used first */
  memories: number;
  rollingSummary: boolean;
  recentActions: number;
  identityCard: boolean;
};

export type AgentContextResponse = {
  /** Oldest first */
  liveWindow: Array<LiveWindowMessageResponse>;
  /** '' when left out */
  rollingSummary: string;
  memories: ContextMemories;
  /** Markdown; '' when left out or memory is off */
  identityCard: string;
  /** Newest first */
  recentActions: Array<ActionViewResponse>;
  /** The blocks above rendered for the system prompt */
  systemPrompt: string;
  tokens: ContextTokens;
  trimmed: ContextTrimmed;
  /** The memories shown, in prompt order */
  usedMemoryIds: Array<string>;
  memoryStatus: 'enabled' | 'agent_disabled' | 'user_disabled' | 'user_paused';
};

export type ChatMessageResponse = {
  role: 'system' | 'user' | 'assistant';
  content: string;
};

export type AgentContextMessagesResponse = {
  /** The system block (every block but the live window), then the live window as user and assistant turns, oldest first, verbatim: the `messages` of OpenAI chat completions as they are. Anthropic takes the first one, the system message, as the `system` parameter and the others as `messages`. */
  messages: Array<ChatMessageResponse>;
  /** Of the system prompt with the live window */
  tokens: ContextTokens;
  trimmed: ContextTrimmed;
  /** The memories shown, in prompt order */
  usedMemoryIds: Array<string>;
  memoryStatus: 'enabled' | 'agent_disabled' | 'user_disabled' | 'user_paused';
};

export type OpenAiToolResponse = {
  type: 'function';
  function: ToolFunctionResponse;
};

export type AnthropicToolResponse = {
  name: string;
  description: string;
  /** JSON Schema */
  input_schema: {
    [key: string]: unknown;
  };
};

export type McpToolResponse = {
  name: string;
  description: string;
  /** JSON Schema */
  inputSchema: {
    [key: string]: unknown;
  };
};

export type SourceMessageResponse = {
  messageId: string;
  /** The beginning of the message (200 characters) */
  excerpt: string;
  at: string;
};

export type MemoryHistoryEntryResponse = {
  at: string;
  /** An expiry is a `rejected` step by `{ kind: expiry }`, reason `expired` */
  event:
    | 'detected'
    | 'reinforced'
    | 'approved'
    | 'rejected'
    | 'evicted'
    | 'deleted'
    | 'superseded'
    | 'used';
  /** { kind: person, userId, role } | { kind: policy } | { kind: expiry } */
  by?: {
    [key: string]: unknown;
  };
  confidence?: number;
  reason?: string;
  /** The message that detected or reinforced it */
  messageId?: string;
  /** The newer memory that replaced it (superseded step) */
  supersededBy?: string;
};

export type MemoryAsOfResponse = {
  memoryId: string;
  kind: 'identity' | 'preference' | 'ongoing' | 'commitment' | 'fact' | 'context';
  /** null once deleted, or erased */
  content: string | null;
  confidence: number;
  /** A candidate nobody reviewed in time is rejected, reason `expired` (seed 002) */
  status: 'pending' | 'approved' | 'rejected' | 'deleted' | 'evicted' | 'superseded';
  /** Why it was rejected: the reviewer’s reason, or `expired` */
  reason?: string;
  /** Once superseded: the id of the newer memory that replaced it */
  supersededBy?: string;
  dueAt?: string;
  /** Wipe generation */
  generation: number;
  sourceMessage: SourceMessageResponse | null;
  history: Array<MemoryHistoryEntryResponse>;
};

export type MemoriesAsOfResponse = {
  userId: string;
  asOf: string;
  items: Array<MemoryAsOfResponse>;
};

export type ErasureResponse = {
  status: 'erased';
  /** Streams of the user deleted by this request */
  streamsDeleted: number;
  /** Position of the UserErased event */
  position: number;
};

export type LlmUsageDay = {
  /** Calls recorded (each piece of work once per outcome and day) */
  calls: number;
  /** Calls whose answer was invalid or that failed */
  failures: number;
  promptTokens: number;
  completionTokens: number;
  /** The calls’ latencies added up, in milliseconds */
  latencyMs: number;
  /** Times work was held back by the daily budget */
  deferred: number;
  /** Models that answered (`offline-rules`: no LLM) */
  engines: Array<string>;
  /** In the workspace policy’s time zone */
  day: string;
  purpose: 'extraction' | 'summary' | 'identity_card';
};

export type LlmBudgetView = {
  /** Extraction and summary calls per day (the policy) */
  limit: number;
  /** Extraction and summary calls made today */
  usedToday: number;
  /** When today ends in the policy’s time zone */
  resetsAt: string;
};

export type DeferredLlmWork = {
  purpose: 'extraction' | 'summary';
  /** `message/{messageId}` or `session/{sessionId}` */
  cause: string;
  deferredAt: string;
  /** It runs once this time has passed */
  until: string;
};

export type MyLlmUsageResponse = {
  days: number;
  /** First day of the window */
  from: string;
  timeZone: string;
  /** By day (newest first) and purpose */
  items: Array<LlmUsageDay>;
  /** The workspace’s daily budget; null when it has none */
  budget: LlmBudgetView | null;
  /** Analysis waiting for the next day because the budget was spent, oldest first */
  deferred: Array<DeferredLlmWork>;
};

export type LlmUsageTotals = {
  /** Calls recorded (each piece of work once per outcome and day) */
  calls: number;
  /** Calls whose answer was invalid or that failed */
  failures: number;
  promptTokens: number;
  completionTokens: number;
  /** The calls’ latencies added up, in milliseconds */
  latencyMs: number;
  /** Times work was held back by the daily budget */
  deferred: number;
  /** Models that answered (`offline-rules`: no LLM) */
  engines: Array<string>;
};

export type LlmUsageByPurpose = {
  extraction: LlmUsageTotals;
  summary: LlmUsageTotals;
  identity_card: LlmUsageTotals;
};

export type LlmUsageSummary = {
  /** Calls recorded (each piece of work once per outcome and day) */
  calls: number;
  /** Calls whose answer was invalid or that failed */
  failures: number;
  promptTokens: number;
  completionTokens: number;
  /** The calls’ latencies added up, in milliseconds */
  latencyMs: number;
  /** Times work was held back by the daily budget */
  deferred: number;
  /** Models that answered (`offline-rules`: no LLM) */
  engines: Array<string>;
  byPurpose: LlmUsageByPurpose;
};

export type UserLlmUsage = {
  /** Calls recorded (each piece of work once per outcome and day) */
  calls: number;
  /** Calls whose answer was invalid or that failed */
  failures: number;
  promptTokens: number;
  completionTokens: number;
  /** The calls’ latencies added up, in milliseconds */
  latencyMs: number;
  /** Times work was held back by the daily budget */
  deferred: number;
  /** Models that answered (`offline-rules`: no LLM) */
  engines: Array<string>;
  byPurpose: LlmUsageByPurpose;
  userId: string;
};

export type WorkspaceLlmUsageResponse = {
  days: number;
  /** First day of the window */
  from: string;
  timeZone: string;
  /** Every user of the workspace together */
  totals: LlmUsageSummary;
  /** Per user (by id), counts only: no content */
  items: Array<UserLlmUsage>;
  nextCursor?: string | null;
};

export type RegisterWebhookBody = {
  /** https (http only to a loopback address: localhost, 127.0.0.1, ::1) */
  url: string;
  events: Array<
    | 'action.expired'
    | 'memory.pending_review'
    | 'memory.approved'
    | 'memory.rejected'
    | 'user.erased'
  >;
  description?: string;
};

export type RegisteredWebhookResponse = {
  id: string;
  url: string;
  events: Array<
    | 'action.expired'
    | 'memory.pending_review'
    | 'memory.approved'
    | 'memory.rejected'
    | 'user.erased'
  >;
  description?: string;
  createdAt: string;
  /** The admin who registered it */
  createdBy: string;
  /** The signing secret, shown this once: verify `Engram-Signature` with it (HMAC-SHA256 of "<Engram-Timestamp>.<body>") */
  secret: string;
  /** Position of the registration (minPosition of a later read) */
  position: number;
};

export type WebhookResponse = {
  id: string;
  url: string;
  events: Array<
    | 'action.expired'
    | 'memory.pending_review'
    | 'memory.approved'
    | 'memory.rejected'
    | 'user.erased'
  >;
  description?: string;
  createdAt: string;
  /** The admin who registered it */
  createdBy: string;
};

export type WebhookListResponse = {
  items: Array<WebhookResponse>;
};

export type WebhookDeliveryResponse = {
  /** Engram-Delivery-Id: the same on every retry */
  id: string;
  /** The event delivered */
  eventId: string;
  event:
    | 'action.expired'
    | 'memory.pending_review'
    | 'memory.approved'
    | 'memory.rejected'
    | 'user.erased';
  userId: string | null;
  /** pending (retried with backoff), delivered (a 2xx answer), failed (no 2xx after the last attempt), cancelled (the endpoint was removed) */
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: number;
  /** The last answer's HTTP status */
  lastStatusCode: number | null;
  /** Why the last attempt failed (HTTP status, timeout, network error) */
  lastError: string | null;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
};

export type WebhookDeliveriesResponse = {
  items: Array<WebhookDeliveryResponse>;
  nextCursor: string | null;
};

export type CreateAgentKeyBody = {
  /** An admin's label for the key (where it is deployed); shown in the list */
  name?: string;
};

export type CreatedAgentKeyResponse = {
  /** The key id (for the list and DELETE) */
  id: string;
  /** The secret key, shown this once (only its SHA-256 digest is kept): the agent sends it as `Authorization: Bearer <key>` */
  key: string;
};

export type AgentKeyResponse = {
  id: string;
  agentId: string;
  name: string | null;
  createdAt: string;
  /** The admin who created it */
  createdBy: string;
  /** Its latest recorded use (recorded at most every ten minutes; null: never used) */
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
};

export type AgentKeyListResponse = {
  items: Array<AgentKeyResponse>;
};

/** Every operation of the API by path and method. */
export interface Paths {
  '/metrics': {
    get: {
      operationId: 'MetricsController_scrape';
      path: Record<string, never>;
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: string;
    };
  };
  '/health': {
    get: {
      operationId: 'HealthController_check';
      path: Record<string, never>;
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: {
        status?: string;
        info?: {
          [key: string]: {
            status: string;
            [key: string]: unknown;
          };
        } | null;
        error?: {
          [key: string]: {
            status: string;
            [key: string]: unknown;
          };
        } | null;
        details?: {
          [key: string]: {
            status: string;
            [key: string]: unknown;
          };
        };
      };
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/messages': {
    post: {
      operationId: 'MessagesController_record';
      path: { ws: string; userId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: RecordMessageBody;
      status: 202;
      response: RecordMessageResponse;
    };
  };
  '/v1/me/sessions/{sessionId}': {
    get: {
      operationId: 'MySessionsController_get';
      path: { sessionId: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: SessionResponse;
    };
  };
  '/v1/me/stats': {
    get: {
      operationId: 'MeController_stats';
      path: Record<string, never>;
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MyStatsResponse;
    };
  };
  '/v1/me/memories': {
    get: {
      operationId: 'MyMemoriesController_list';
      path: Record<string, never>;
      query: {
        status?:
          'pending' | 'approved' | 'rejected' | 'deleted' | 'evicted' | 'superseded' | 'expired';
        kind?: 'identity' | 'preference' | 'ongoing' | 'commitment' | 'fact' | 'context';
        minPosition?: number;
      };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemoryListResponse;
    };
  };
  '/v1/me/memories/{memoryId}': {
    delete: {
      operationId: 'MyMemoriesController_delete';
      path: { memoryId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemoryDecisionResponse;
    };
  };
  '/v1/me/memories/{memoryId}/approve': {
    post: {
      operationId: 'MyMemoriesController_approve';
      path: { memoryId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemoryDecisionResponse;
    };
  };
  '/v1/me/memories/{memoryId}/reject': {
    post: {
      operationId: 'MyMemoriesController_reject';
      path: { memoryId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: RejectBody;
      status: 200;
      response: MemoryDecisionResponse;
    };
  };
  '/v1/me/memories/wipe': {
    post: {
      operationId: 'MyMemoriesController_wipe';
      path: Record<string, never>;
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: WipeResponse;
    };
  };
  '/v1/workspaces/{ws}/memories': {
    get: {
      operationId: 'ReviewController_queue';
      path: { ws: string };
      query: {
        minPosition?: number;
        cursor?: string;
        limit?: number;
        status?: 'pending' | 'rejected' | 'expired';
        userId?: string;
        kind?: 'identity' | 'preference' | 'ongoing' | 'commitment' | 'fact' | 'context';
        minConfidence?: number;
      };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: ReviewQueueResponse;
    };
  };
  '/v1/workspaces/{ws}/memories/{memoryId}/approve': {
    post: {
      operationId: 'ReviewController_approve';
      path: { ws: string; memoryId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemoryDecisionResponse;
    };
  };
  '/v1/workspaces/{ws}/memories/{memoryId}/reject': {
    post: {
      operationId: 'ReviewController_reject';
      path: { ws: string; memoryId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: RejectBody;
      status: 200;
      response: MemoryDecisionResponse;
    };
  };
  '/v1/me/identity-card': {
    get: {
      operationId: 'IdentityCardController_get';
      path: Record<string, never>;
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: IdentityCardResponse;
    };
  };
  '/v1/workspaces/{ws}/memory-policy': {
    get: {
      operationId: 'PolicyController_get';
      path: { ws: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemoryPolicyResponse;
    };
    put: {
      operationId: 'PolicyController_put';
      path: { ws: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: MemoryPolicyBody;
      status: 200;
      response: ChangedMemoryPolicyResponse;
    };
  };
  '/v1/workspaces/{ws}/agents/{agentId}/memory': {
    put: {
      operationId: 'PolicyController_agentMemory';
      path: { ws: string; agentId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: AgentMemoryBody;
      status: 200;
      response: AgentMemoryResponse;
    };
  };
  '/v1/workspaces/{ws}/agents': {
    get: {
      operationId: 'AgentsController_list';
      path: { ws: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: AgentListResponse;
    };
  };
  '/v1/me/memory-settings': {
    get: {
      operationId: 'MemorySettingsController_get';
      path: Record<string, never>;
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemorySettingsResponse;
    };
    put: {
      operationId: 'MemorySettingsController_put';
      path: Record<string, never>;
      query: Record<string, never>;
      headers: Record<string, never>;
      body: MemorySettingsBody;
      status: 200;
      response: MemorySettingsResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/actions': {
    get: {
      operationId: 'ActionsController_pending';
      path: { ws: string; userId: string };
      query: { cursor?: string; limit?: number; minPosition?: number; status: 'pending' };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: PendingActionsResponse;
    };
    post: {
      operationId: 'ActionsController_propose';
      path: { ws: string; userId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: ProposeActionBody;
      status: 201;
      response: ProposeActionResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/actions/{actionId}': {
    get: {
      operationId: 'ActionsController_get';
      path: { ws: string; userId: string; actionId: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: ActionViewResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/actions/{actionId}/confirm': {
    post: {
      operationId: 'ActionsController_confirm';
      path: { ws: string; userId: string; actionId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: ConfirmActionBody;
      status: 200;
      response: ActionTransitionResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/actions/{actionId}/execute': {
    post: {
      operationId: 'ActionsController_execute';
      path: { ws: string; userId: string; actionId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: ExecuteActionBody;
      status: 200;
      response: ActionTransitionResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/actions/{actionId}/abort': {
    post: {
      operationId: 'ActionsController_abort';
      path: { ws: string; userId: string; actionId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: AbortActionBody;
      status: 200;
      response: ActionTransitionResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/actions/{actionId}/fail': {
    post: {
      operationId: 'ActionsController_fail';
      path: { ws: string; userId: string; actionId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: FailActionBody;
      status: 200;
      response: ActionTransitionResponse;
    };
  };
  '/v1/tools/recall_actions': {
    get: {
      operationId: 'RecallActionsController_definition';
      path: Record<string, never>;
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: ToolDefinitionResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/tools/recall_actions': {
    post: {
      operationId: 'RecallActionsController_recall';
      path: { ws: string; userId: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: RecallActionsBody;
      status: 200;
      response: RecallActionsResponse;
    };
  };
  '/v1/me/activity': {
    get: {
      operationId: 'ActivityController_feed';
      path: Record<string, never>;
      query: { minPosition?: number; cursor?: string; limit?: number; locale?: 'fr' | 'en' };
      headers: { 'Accept-Language'?: string };
      body: undefined;
      status: 200;
      response: ActivityResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/context': {
    get: {
      operationId: 'ContextController_context';
      path: { ws: string; userId: string };
      query: {
        sessionId?: string;
        agentId?: string;
        locale?: 'fr' | 'en';
        maxTokens?: number;
        format?: 'blocks' | 'messages';
        excludeMessageId?: string;
        minPosition?: number;
      };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: AgentContextResponse | AgentContextMessagesResponse;
    };
  };
  '/v1/tools': {
    get: {
      operationId: 'AgentToolsController_list';
      path: Record<string, never>;
      query: { format?: 'openai' | 'anthropic' | 'mcp' };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: Array<OpenAiToolResponse> | Array<AnthropicToolResponse> | Array<McpToolResponse>;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/tools/{name}': {
    post: {
      operationId: 'AgentToolsController_call';
      path: { ws: string; userId: string; name: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: {
        [key: string]: unknown;
      };
      status: 200;
      response: {
        /** What the model reads */
        text: string;
        [key: string]: unknown;
      };
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/export': {
    get: {
      operationId: 'AuditController_export';
      path: { ws: string; userId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: string;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/memories/as-of/{timestamp}': {
    get: {
      operationId: 'AuditController_asOf';
      path: { ws: string; userId: string; timestamp: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MemoriesAsOfResponse;
    };
  };
  '/v1/workspaces/{ws}/users/{userId}/erasure': {
    post: {
      operationId: 'ErasureController_erase';
      path: { ws: string; userId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: ErasureResponse;
    };
  };
  '/v1/me/llm-usage': {
    get: {
      operationId: 'MyLlmUsageController_usage';
      path: Record<string, never>;
      query: { minPosition?: number; days?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: MyLlmUsageResponse;
    };
  };
  '/v1/workspaces/{ws}/llm-usage': {
    get: {
      operationId: 'WorkspaceLlmUsageController_usage';
      path: { ws: string };
      query: { minPosition?: number; cursor?: string; limit?: number; days?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: WorkspaceLlmUsageResponse;
    };
  };
  '/v1/workspaces/{ws}/webhooks': {
    post: {
      operationId: 'WebhooksController_register';
      path: { ws: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: RegisterWebhookBody;
      status: 201;
      response: RegisteredWebhookResponse;
    };
    get: {
      operationId: 'WebhooksController_list';
      path: { ws: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: WebhookListResponse;
    };
  };
  '/v1/workspaces/{ws}/webhooks/{webhookId}': {
    delete: {
      operationId: 'WebhooksController_remove';
      path: { ws: string; webhookId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 204;
      response: undefined;
    };
  };
  '/v1/workspaces/{ws}/webhooks/{webhookId}/deliveries': {
    get: {
      operationId: 'WebhooksController_deliveries';
      path: { ws: string; webhookId: string };
      query: { minPosition?: number; cursor?: string; limit?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: WebhookDeliveriesResponse;
    };
  };
  '/v1/workspaces/{ws}/agents/{agentId}/keys': {
    post: {
      operationId: 'AgentKeysController_create';
      path: { ws: string; agentId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: CreateAgentKeyBody;
      status: 201;
      response: CreatedAgentKeyResponse;
    };
    get: {
      operationId: 'AgentKeysController_list';
      path: { ws: string; agentId: string };
      query: { minPosition?: number };
      headers: Record<string, never>;
      body: undefined;
      status: 200;
      response: AgentKeyListResponse;
    };
  };
  '/v1/workspaces/{ws}/agents/{agentId}/keys/{keyId}': {
    delete: {
      operationId: 'AgentKeysController_revoke';
      path: { ws: string; agentId: string; keyId: string };
      query: Record<string, never>;
      headers: Record<string, never>;
      body: undefined;
      status: 204;
      response: undefined;
    };
  };
}
