import { Caller, type EngramClientOptions } from './caller';
import { EngramUser } from './engram-user';
import type {
  AgentKeyListResponse,
  AgentMemoryResponse,
  AnthropicToolResponse,
  McpToolResponse,
  OpenAiToolResponse,
  CreatedAgentKeyResponse,
  ChangedMemoryPolicyResponse,
  MemoryDecisionResponse,
  MemoryListResponse,
  MemoryPolicyBody,
  MemoryPolicyResponse,
  RegisterWebhookBody,
  RegisteredWebhookResponse,
  ReviewItem,
  WebhookDeliveryResponse,
  WebhookListResponse,
} from './generated/api-types';
import { paginate } from './pages';
import { ROUTES, type QueryOf } from './routes';

export type ReviewQueueFilters = Omit<
  QueryOf<typeof ROUTES.reviewQueue.path, 'get'>,
  'minPosition' | 'cursor'
>;
export type MyMemoriesFilters = Omit<QueryOf<typeof ROUTES.myMemories.path, 'get'>, 'minPosition'>;

/**
 * A typed client of the Engram HTTP API:
 *
 *     const engram = new EngramClient({ baseUrl, token, workspace });
 *     const alice = engram.user('alice');
 *     await alice.recordMessage({ sessionId: 's1', role: 'user', channel: 'web', text: '…' });
 *     const context = await alice.context({ format: 'messages' });
 */
export class EngramClient {
  private readonly caller: Caller;

  constructor(options: EngramClientOptions) {
    this.caller = new Caller(options);
  }

  get workspace(): string {
    return this.caller.workspace;
  }

  /** What an agent does for one user (messages, context, actions, tools, export, erasure). */
  user(userId: string): EngramUser {
    return new EngramUser(this.caller, userId);
  }

  /** The token's own user: their memories (`/v1/me/memories`, user role). */
  myMemories(filters: MyMemoriesFilters = {}): Promise<MemoryListResponse> {
    return this.caller.call(ROUTES.myMemories, { query: filters });
  }

  deleteMyMemory(memoryId: string): Promise<MemoryDecisionResponse> {
    return this.caller.call(ROUTES.deleteMyMemory, { params: { memoryId } });
  }

  /** The admins' review queue, page after page as it is consumed (admin role). */
  reviewQueue(filters: ReviewQueueFilters = {}): AsyncGenerator<ReviewItem> {
    return paginate((cursor) =>
      this.caller.call(ROUTES.reviewQueue, {
        query: { ...filters, ...(cursor === undefined ? {} : { cursor }) },
      }),
    );
  }

  approveMemory(memoryId: string): Promise<MemoryDecisionResponse> {
    return this.caller.call(ROUTES.approveMemory, { params: { memoryId } });
  }

  rejectMemory(memoryId: string, reason?: string): Promise<MemoryDecisionResponse> {
    return this.caller.call(ROUTES.rejectMemory, {
      params: { memoryId },
      body: reason === undefined ? {} : { reason },
    });
  }

  memoryPolicy(): Promise<MemoryPolicyResponse> {
    return this.caller.call(ROUTES.getMemoryPolicy);
  }

  setMemoryPolicy(policy: MemoryPolicyBody): Promise<ChangedMemoryPolicyResponse> {
    return this.caller.call(ROUTES.putMemoryPolicy, { body: policy });
  }

  agents() {
    return this.caller.call(ROUTES.listAgents);
  }

  /** "Enable Memory" for an agent of the workspace (admin role). */
  setAgentMemory(agentId: string, enabled: boolean): Promise<AgentMemoryResponse> {
    return this.caller.call(ROUTES.setAgentMemory, {
      params: { agentId },
      body: { enabled },
    });
  }

  /**
   * A service key for an agent (admin role): `key` is answered this once; the agent sends it as its
   * token (`new EngramClient({ token: key, … })`).
   */
  createAgentKey(agentId: string, name?: string): Promise<CreatedAgentKeyResponse> {
    return this.caller.call(ROUTES.createAgentKey, {
      params: { agentId },
      body: name === undefined ? {} : { name },
    });
  }

  /** An agent's keys, without their secrets (admin role). */
  agentKeys(agentId: string): Promise<AgentKeyListResponse> {
    return this.caller.call(ROUTES.listAgentKeys, { params: { agentId } });
  }

  /** Revokes a key at once (admin role). */
  async revokeAgentKey(agentId: string, keyId: string): Promise<void> {
    await this.caller.call(ROUTES.revokeAgentKey, { params: { agentId, keyId } });
  }

  /** Registers a webhook (admin role): `secret`, answered this once, verifies its signatures. */
  registerWebhook(webhook: RegisterWebhookBody): Promise<RegisteredWebhookResponse> {
    return this.caller.call(ROUTES.registerWebhook, { body: webhook });
  }

  webhooks(): Promise<WebhookListResponse> {
    return this.caller.call(ROUTES.listWebhooks);
  }

  async removeWebhook(webhookId: string): Promise<void> {
    await this.caller.call(ROUTES.removeWebhook, { params: { webhookId } });
  }

  /** A webhook's deliveries and their attempts, page after page as they are consumed. */
  webhookDeliveries(webhookId: string): AsyncGenerator<WebhookDeliveryResponse> {
    return paginate((cursor) =>
      this.caller.call(ROUTES.webhookDeliveries, {
        params: { webhookId },
        query: cursor === undefined ? {} : { cursor },
      }),
    );
  }

  /** The agent tools' definitions, in the shape a model API takes (default `openai`). */
  tools<F extends ToolFormat = 'openai'>(format?: F): Promise<ToolDefinitions<F>> {
    return this.caller.call(ROUTES.toolDefinitions, {
      query: format === undefined ? {} : { format },
    }) as Promise<ToolDefinitions<F>>;
  }
}

export type ToolFormat = 'openai' | 'anthropic' | 'mcp';
export type ToolDefinitions<F extends ToolFormat> = F extends 'anthropic'
  ? AnthropicToolResponse[]
  : F extends 'mcp'
    ? McpToolResponse[]
    : OpenAiToolResponse[];
