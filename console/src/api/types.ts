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
  sourceMessageId: string;
  sourceExcerpt?: string | null;
  dueAt?: string;
  createdAt: string;
  decidedAt?: string;
};

export type ReviewItem = {
  memoryId: string;
  userId: string;
  kind: MemoryKind;
  content: string;
  confidence: number;
  status: string;
  sourceExcerpt: string;
  createdAt: string;
  ageSeconds: number;
  decidedAt?: string;
};

export type ReviewStatus = 'pending' | 'expired';

export type ReviewFilters = { kind?: MemoryKind; userId?: string; minConfidence?: number };

export type MemorySettings = {
  enabled: boolean;
  pausedUntil: string | null;
  status: 'enabled' | 'disabled' | 'paused';
};

export type IdentityCard = { markdown: string; memoryCount: number; generatedAt: string | null };

export type MemoryPolicy = {
  reviewMode: 'auto' | 'admin' | 'user';
  timeZone: string;
  locale: string;
};

export type DemoUsers = { workspaceId: string; users: { userId: string; roles: Role[] }[] };
