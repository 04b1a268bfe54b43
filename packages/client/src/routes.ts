import type { Paths } from './generated/api-types';
import type { RetryPolicy } from './transport';

export type Method = 'get' | 'put' | 'post' | 'delete';
export type RoutePath = keyof Paths;

type OperationOf<P extends RoutePath, M extends Method> = M extends keyof Paths[P]
  ? Paths[P][M]
  : never;
export type QueryOf<P extends RoutePath, M extends Method> =
  OperationOf<P, M> extends { query: infer Q } ? Q : never;
export type BodyOf<P extends RoutePath, M extends Method> =
  OperationOf<P, M> extends { body: infer B } ? B : never;
export type ResponseOf<P extends RoutePath, M extends Method> =
  OperationOf<P, M> extends { response: infer R } ? R : never;

/**
 * Whose writes a read must see (`minPosition`), and under whose name a write's `position` is kept:
 * one user of the workspace, the workspace itself (policy, agents, review), the token's own user
 * (`/v1/me/…`), or nobody.
 */
export type Scope = 'user' | 'workspace' | 'me' | 'none';

/**
 * A read (sent again after any failure; takes `minPosition`), a write the API recognises when it comes
 * again (it carries its own id, or sets a value), a write it would refuse the second time, or an agent
 * tool called by name (a read or a write: it takes `minPosition` and is sent again only when refused).
 */
export type Kind = 'read' | 'idempotent-write' | 'write' | 'tool';

export type Route<P extends RoutePath = RoutePath, M extends Method = Method> = Readonly<{
  method: M;
  path: P;
  kind: Kind;
  scope: Scope;
}>;

/** A route of the OpenAPI document: the compiler refuses a path or a method it does not have. */
function route<P extends RoutePath, M extends Method & keyof Paths[P]>(
  method: M,
  path: P,
  kind: Kind,
  scope: Scope,
): Route<P, M> {
  return { method, path, kind, scope };
}

export function retryPolicy(kind: Kind): RetryPolicy {
  return kind === 'write' || kind === 'tool' ? 'refused-only' : 'idempotent';
}

const USER = '/v1/workspaces/{ws}/users/{userId}' as const;

/**
 * Every operation the client calls, by path and method. test/e2e/client-drift.e2e.spec.ts checks each
 * against the document the API serves.
 */
export const ROUTES = {
  recordMessage: route('post', `${USER}/messages`, 'idempotent-write', 'user'),
  context: route('get', `${USER}/context`, 'read', 'user'),
  proposeAction: route('post', `${USER}/actions`, 'idempotent-write', 'user'),
  getAction: route('get', `${USER}/actions/{actionId}`, 'read', 'user'),
  pendingActions: route('get', `${USER}/actions`, 'read', 'user'),
  confirmAction: route('post', `${USER}/actions/{actionId}/confirm`, 'write', 'user'),
  executeAction: route('post', `${USER}/actions/{actionId}/execute`, 'write', 'user'),
  abortAction: route('post', `${USER}/actions/{actionId}/abort`, 'write', 'user'),
  failAction: route('post', `${USER}/actions/{actionId}/fail`, 'write', 'user'),
  recallActions: route('post', `${USER}/tools/recall_actions`, 'read', 'user'),
  toolDefinitions: route('get', '/v1/tools', 'read', 'none'),
  callTool: route('post', `${USER}/tools/{name}`, 'tool', 'user'),
  exportUser: route('get', `${USER}/export`, 'read', 'none'),
  eraseUser: route('post', `${USER}/erasure`, 'write', 'user'),
  myMemories: route('get', '/v1/me/memories', 'read', 'me'),
  deleteMyMemory: route('delete', '/v1/me/memories/{memoryId}', 'write', 'me'),
  reviewQueue: route('get', '/v1/workspaces/{ws}/memories', 'read', 'workspace'),
  approveMemory: route(
    'post',
    '/v1/workspaces/{ws}/memories/{memoryId}/approve',
    'write',
    'workspace',
  ),
  rejectMemory: route(
    'post',
    '/v1/workspaces/{ws}/memories/{memoryId}/reject',
    'write',
    'workspace',
  ),
  getMemoryPolicy: route('get', '/v1/workspaces/{ws}/memory-policy', 'read', 'workspace'),
  putMemoryPolicy: route(
    'put',
    '/v1/workspaces/{ws}/memory-policy',
    'idempotent-write',
    'workspace',
  ),
  listAgents: route('get', '/v1/workspaces/{ws}/agents', 'read', 'workspace'),
  setAgentMemory: route(
    'put',
    '/v1/workspaces/{ws}/agents/{agentId}/memory',
    'idempotent-write',
    'workspace',
  ),
  createAgentKey: route('post', '/v1/workspaces/{ws}/agents/{agentId}/keys', 'write', 'workspace'),
  listAgentKeys: route('get', '/v1/workspaces/{ws}/agents/{agentId}/keys', 'read', 'workspace'),
  revokeAgentKey: route(
    'delete',
    '/v1/workspaces/{ws}/agents/{agentId}/keys/{keyId}',
    'write',
    'workspace',
  ),
  registerWebhook: route('post', '/v1/workspaces/{ws}/webhooks', 'write', 'workspace'),
  listWebhooks: route('get', '/v1/workspaces/{ws}/webhooks', 'read', 'workspace'),
  removeWebhook: route('delete', '/v1/workspaces/{ws}/webhooks/{webhookId}', 'write', 'workspace'),
  webhookDeliveries: route(
    'get',
    '/v1/workspaces/{ws}/webhooks/{webhookId}/deliveries',
    'read',
    'workspace',
  ),
} as const;

export type RouteName = keyof typeof ROUTES;
