/** The shapes of the public HTTP API the console reads (API.md; /docs/openapi.json). */

export const ROLES = ['user', 'admin', 'agent', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

export const MEMORY_KINDS = [
  'identity',
  'preference',
  'ongoing',
  'commitment',
  'fact',
  'context',
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export type Page<T> = { items: T[]; nextCursor?: string | null };

export type ActivityEvent = { type: string; at: string; channel?: string; summary: string };

export type ActivityGroup = {
  traceId?: string;
  title: string;
  channels: string[];
  firstAt: string;
  lastAt: string;
  events: ActivityEvent[];
};

export type Memory = {
  memoryId: string;
  kind: MemoryKind;
  content: string | null;
  confidence: number;
  status: string;
  /** Why it was rejected: a reviewer's reason, or `expired`. */
  reason?: string;
  sourceMessageId: string;
  sourceExcerpt?: string | null;
  dueAt?: string;
  createdAt: string;
  decidedAt?: string;
};

/** GET /v1/me/memories: `canReview` when the workspace reviews in mode user (approve, reject). */
export type MemoryList = Page<Memory> & { canReview: boolean };

export type ReviewItem = {
  memoryId: string;
  userId: string;
  kind: MemoryKind;
  content: string;
  confidence: number;
  status: string;
  reason?: string;
  sourceExcerpt: string;
  createdAt: string;
  ageSeconds: number;
  decidedAt?: string;
};

/** The queue: pending candidates, and those rejected because nobody reviewed them in time. */
export type ReviewStatus = 'pending' | 'rejected';

export type ReviewFilters = { kind?: MemoryKind; userId?: string; minConfidence?: number };

export type MemorySettings = {
  enabled: boolean;
  pausedUntil: string | null;
  status: 'enabled' | 'disabled' | 'paused';
};

export type IdentityCard = { markdown: string; memoryCount: number; generatedAt: string | null };

export const REVIEW_MODES = ['auto', 'admin', 'user'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

/** GET/PUT /v1/workspaces/{ws}/memory-policy (absent fields keep their value on a PUT). */
export type MemoryPolicy = {
  reviewMode: ReviewMode;
  autoApproveAbove?: number;
  pendingTtlDays: number;
  liveWindow: number;
  summaryBatch: number;
  userMemoryCap: number;
  timeZone: string;
  locale: string;
  /** Extraction and summary calls per user per day; absent: no budget. */
  llmCallsPerUserPerDay?: number;
};

export type WorkspaceAgent = {
  agentId: string;
  memoryEnabled: boolean;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  messageCount: number;
  updatedAt: string | null;
  updatedBy: string | null;
};

/** GET …/agents/{agentId}/keys: a service key without its secret. */
export type AgentKey = {
  id: string;
  agentId: string;
  name: string | null;
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
};

export type DemoUsers = { workspaceId: string; users: { userId: string; roles: Role[] }[] };

/** GET /v1/me/llm-usage, the part the console shows: the daily budget and the work it holds back. */
export type MyLlmUsage = {
  budget: { limit: number; usedToday: number; resetsAt: string } | null;
  deferred: {
    purpose: 'extraction' | 'summary';
    cause: string;
    deferredAt: string;
    until: string;
  }[];
};
