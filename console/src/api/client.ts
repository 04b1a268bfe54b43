import { errorOf } from './api-error';
import type {
  ActivityGroup,
  AgentKey,
  DemoUsers,
  IdentityCard,
  MemoryList,
  MemoryPolicy,
  MemorySettings,
  MyLlmUsage,
  Page,
  ReviewFilters,
  ReviewItem,
  ReviewStatus,
  WorkspaceAgent,
} from './types';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Only the public HTTP API, with the signed-in user's bearer token: the console has no private endpoint. */
export class EngramApi {
  constructor(
    private readonly token: string,
    private readonly workspaceId: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  /** The feed's titles and summaries come written in `locale` (the UI's language). */
  activity(locale: string, cursor?: string | null): Promise<Page<ActivityGroup>> {
    return this.call('GET', `/v1/me/activity${query({ cursor, limit: 20, locale })}`);
  }

  memories(): Promise<MemoryList> {
    return this.call('GET', '/v1/me/memories');
  }

  /** In review mode user: the user decides on their own pending memories. */
  decideMine(memoryId: string, decision: 'approve' | 'reject'): Promise<unknown> {
    return this.call('POST', `/v1/me/memories/${encodeURIComponent(memoryId)}/${decision}`, {});
  }

  deleteMemory(memoryId: string): Promise<unknown> {
    return this.call('DELETE', `/v1/me/memories/${encodeURIComponent(memoryId)}`);
  }

  wipeMemories(): Promise<unknown> {
    return this.call('POST', '/v1/me/memories/wipe');
  }

  identityCard(): Promise<IdentityCard> {
    return this.call('GET', '/v1/me/identity-card');
  }

  memorySettings(): Promise<MemorySettings> {
    return this.call('GET', '/v1/me/memory-settings');
  }

  /** Today's part of my LLM ledger: the budget and the analysis it holds back. */
  llmUsage(): Promise<MyLlmUsage> {
    return this.call('GET', '/v1/me/llm-usage?days=1');
  }

  changeMemorySettings(settings: {
    enabled: boolean;
    pausedUntil: string | null;
  }): Promise<MemorySettings> {
    return this.call('PUT', '/v1/me/memory-settings', settings);
  }

  memoryPolicy(): Promise<MemoryPolicy> {
    return this.call('GET', `${this.workspace()}/memory-policy`);
  }

  /** Only the fields given change; the API answers the whole policy, or a 400 naming each field. */
  changeMemoryPolicy(changes: Record<string, unknown>): Promise<MemoryPolicy> {
    return this.call('PUT', `${this.workspace()}/memory-policy`, changes);
  }

  agents(): Promise<Page<WorkspaceAgent>> {
    return this.call('GET', `${this.workspace()}/agents`);
  }

  setAgentMemory(agentId: string, enabled: boolean): Promise<{ enabled: boolean }> {
    return this.call('PUT', `${this.workspace()}/agents/${encodeURIComponent(agentId)}/memory`, {
      enabled,
    });
  }

  agentKeys(agentId: string): Promise<Page<AgentKey>> {
    return this.call('GET', this.agentKeysPath(agentId));
  }

  /** The secret is in this answer only. */
  createAgentKey(agentId: string, name: string): Promise<{ id: string; key: string }> {
    const trimmed = name.trim();
    return this.call('POST', this.agentKeysPath(agentId), trimmed === '' ? {} : { name: trimmed });
  }

  revokeAgentKey(agentId: string, keyId: string): Promise<unknown> {
    return this.call('DELETE', `${this.agentKeysPath(agentId)}/${encodeURIComponent(keyId)}`);
  }

  private agentKeysPath(agentId: string): string {
    return `${this.workspace()}/agents/${encodeURIComponent(agentId)}/keys`;
  }

  reviewQueue(
    status: ReviewStatus,
    filters: ReviewFilters,
    cursor?: string | null,
  ): Promise<Page<ReviewItem>> {
    return this.call(
      'GET',
      `${this.workspace()}/memories${query({ status, ...filters, cursor, limit: 50 })}`,
    );
  }

  approve(memoryId: string): Promise<unknown> {
    return this.call(
      'POST',
      `${this.workspace()}/memories/${encodeURIComponent(memoryId)}/approve`,
    );
  }

  reject(memoryId: string, reason: string): Promise<unknown> {
    return this.call(
      'POST',
      `${this.workspace()}/memories/${encodeURIComponent(memoryId)}/reject`,
      reason.trim() === '' ? {} : { reason: reason.trim() },
    );
  }

  private workspace(): string {
    return `/v1/workspaces/${encodeURIComponent(this.workspaceId)}`;
  }

  private async call<T>(method: Method, path: string, body?: object): Promise<T> {
    const response = await fetch(path, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (response.status === 401) this.onUnauthorized();
    if (!response.ok) throw await errorOf(response);
    // 204 (a revocation): no body to read.
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}

/** The development shortcut (404 unless the service runs with dev tokens on). */
export async function demoUsers(): Promise<DemoUsers | null> {
  const response = await fetch('/v1/dev/tokens');
  return response.ok ? ((await response.json()) as DemoUsers) : null;
}

export async function mintDemoToken(userId: string): Promise<string> {
  const response = await fetch('/v1/dev/tokens', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  if (!response.ok) throw await errorOf(response);
  return ((await response.json()) as { token: string }).token;
}

function query(parameters: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
