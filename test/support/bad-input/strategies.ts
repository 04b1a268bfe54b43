import fc from 'fast-check';
import {
  ACTION_STATUSES,
  LOCALES,
  MEMORY_KINDS,
  MESSAGE_ROLES,
  WEBHOOK_EVENT_TYPES,
  type Role,
} from '@engram/domain';
import { deeplyNested, hostileString, junkQueryValue } from './junk';

/** What exists before the properties run: ids of the caller's and another user's records. */
export type Fixtures = Readonly<{
  workspaceId: string;
  /** The user whose token `user` requests carry and whose records agents and auditors address. */
  userId: string;
  otherUserId: string;
  sessionId: string;
  /** Actions and memories of both users (another user's ids must be refused like unknown ones). */
  actionIds: readonly string[];
  memoryIds: readonly string[];
}>;

/** How to call one operation with input that is sometimes right and often wrong. */
export type Strategy = Readonly<{
  /** The roles of the caller the route is meant for. */
  roles: readonly Role[];
  /** A plausible body (mutated and broken by the test); absent for operations without one. */
  body?: (fixtures: Fixtures) => fc.Arbitrary<Record<string, unknown>>;
  /** Path parameters this operation draws differently from PATH_PARAMETERS. */
  path?: Readonly<Record<string, (fixtures: Fixtures) => fc.Arbitrary<string>>>;
}>;

const identifier = () =>
  fc.oneof(
    fc.constantFrom('web', 'telegram', 'sess-1', 'trace:7f3a', 'a.b_c-d'),
    fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/),
  );
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const text = () =>
  fc.oneof(fc.constantFrom('Bonjour.', 'Thanks, noted.'), hostileString(), fc.string());
const isoDate = () =>
  fc.oneof(
    fc
      .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z') })
      .filter((date) => !Number.isNaN(date.getTime()))
      .map((date) => date.toISOString()),
    // Around the accepted range (1970 to 9999 in UTC), offsets that cross it, forms Date misreads.
    fc.constantFrom(
      '0001-01-01T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:30:00+01:00',
      '1970-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:00:00-12:00',
      '9999-12-31T23:59:59-14:00',
      '+010000-01-01T00:00:00Z',
      '2026-02-30T10:00:00Z',
      '2026-06-01T10:00:00+25:00',
      '2026-03-01T10:00:00.123456789+05:45',
      '2026-03-01T10:00:00',
      '2026-03-01',
      '2026-W10-1',
      '2026-060',
    ),
  );
/** Objects a client may send as free JSON: plain, deep (near and past the depth limit), polluting. */
const jsonObject = () =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 40 }).map((depth) => ({ deep: deeplyNested(depth) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('__proto__', 'constructor', 'prototype')
        // JSON.parse makes `__proto__` an own key, as a JSON body does.
        .map(
          (key) => JSON.parse(`{"nested":{"${key}":{"polluted":true}}}`) as Record<string, unknown>,
        ),
    },
  );
const ownedId = (fixtures: Fixtures, ids: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom(...ids).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: hostileString() },
    { weight: 1, arbitrary: fc.constant(fixtures.userId) },
  );

/** Drops the fields the arbitrary left undefined, so that "absent" is really absent. */
const defined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
const record = (fields: Record<string, fc.Arbitrary<unknown>>) => fc.record(fields).map(defined);

/** Path parameters by name, for every operation that has them. */
export const PATH_PARAMETERS: Readonly<
  Record<string, (fixtures: Fixtures) => fc.Arbitrary<string>>
> = {
  ws: (f) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(f.workspaceId) },
      { weight: 1, arbitrary: fc.constant('another-workspace') },
      { weight: 1, arbitrary: hostileString() },
    ),
  userId: (f) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(f.userId) },
      { weight: 2, arbitrary: fc.constant(f.otherUserId) },
      { weight: 2, arbitrary: hostileString() },
    ),
  sessionId: (f) => fc.oneof(fc.constant(f.sessionId), identifier(), hostileString()),
  agentId: () => fc.oneof(identifier(), hostileString()),
  actionId: (f) => ownedId(f, f.actionIds),
  memoryId: (f) => ownedId(f, f.memoryIds),
  timestamp: () =>
    fc.oneof(
      isoDate(),
      fc.constantFrom('2026-03-01T10:00:00', '2026-03-01', 'yesterday', '1700000000'),
      hostileString(),
    ),
};

/** Plausible values of query parameters by name; the test mixes them with junk. */
export const QUERY_PARAMETERS: Readonly<Record<string, fc.Arbitrary<string>>> = {
  cursor: fc.oneof(fc.constantFrom('1', '100'), junkQueryValue()),
  limit: fc.integer({ min: -5, max: 120 }).map(String),
  status: fc.constantFrom(...ACTION_STATUSES, 'approved', 'rejected', 'deleted', 'evicted'),
  kind: fc.constantFrom(...MEMORY_KINDS),
  userId: fc.constantFrom('alice', 'bob'),
  minConfidence: fc.double({ min: -1, max: 2, noNaN: true }).map(String),
  sessionId: fc.constantFrom('sess-1', 'unknown-session'),
  agentId: fc.constantFrom('chat-web', 'other-agent'),
  locale: fc.constantFrom(...LOCALES, 'de'),
  maxTokens: fc.integer({ min: 0, max: 300_000 }).map(String),
  days: fc.integer({ min: -5, max: 120 }).map(String),
  // The context's (blocks, messages) and the tool definitions' (openai, anthropic, mcp).
  format: fc.constantFrom('blocks', 'messages', 'openai', 'anthropic', 'mcp', 'xml'),
  excludeMessageId: fc.oneof(fc.uuid(), junkQueryValue()),
  // A position far ahead waits 2 s and answers 503: drawn rarely (every read takes minPosition),
  // to bound the runtime.
  minPosition: fc.oneof(
    { weight: 29, arbitrary: fc.integer({ min: 0, max: 3 }).map(String) },
    { weight: 1, arbitrary: fc.constant('900000') },
  ),
};

const messageBody = () =>
  record({
    messageId: optional(fc.uuid()),
    sessionId: identifier(),
    role: fc.constantFrom(...MESSAGE_ROLES),
    channel: identifier(),
    text: text(),
    agentId: optional(identifier()),
    traceId: optional(identifier()),
    occurredAt: optional(isoDate()),
  });

const actionBody = () =>
  record({
    actionId: optional(fc.uuid()),
    traceId: optional(identifier()),
    tool: identifier(),
    target: optional(text()),
    summary: text(),
    input: optional(jsonObject()),
    channel: identifier(),
    requiresConfirmation: optional(fc.boolean()),
    // Long enough that no action expires while the properties run (expiry is background work).
    ttlSeconds: optional(fc.integer({ min: 3600, max: 604_800 })),
  });

const rejectBody = () => record({ reason: optional(text()) });

const policyBody = () =>
  record({
    reviewMode: optional(fc.constantFrom('auto', 'admin', 'user')),
    autoApproveAbove: optional(
      fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)),
    ),
    pendingTtlDays: optional(fc.integer({ min: 1, max: 365 })),
    liveWindow: optional(fc.integer({ min: 1, max: 200 })),
    summaryBatch: optional(fc.integer({ min: 1, max: 200 })),
    userMemoryCap: optional(fc.integer({ min: 1, max: 10_000 })),
    timeZone: optional(
      fc.constantFrom('Europe/Paris', 'UTC', 'America/New_York', 'Mars/Olympus', 'utc', 'GMT+2'),
    ),
    locale: optional(fc.constantFrom(...LOCALES)),
    llmCallsPerUserPerDay: optional(
      fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constant(null)),
    ),
  });

/** Webhook endpoints: loopback URLs (nothing listens there: deliveries fail fast) and bad ones. */
const webhookBody = () =>
  record({
    url: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom('https://127.0.0.1:9/engram', 'http://localhost:9/h'),
      },
      { weight: 1, arbitrary: fc.constantFrom('http://hooks.example.com/x', 'ftp://127.0.0.1/x') },
      { weight: 1, arbitrary: hostileString() },
    ),
    events: fc.oneof(
      { weight: 3, arbitrary: fc.subarray([...WEBHOOK_EVENT_TYPES], { minLength: 1 }) },
      { weight: 1, arbitrary: fc.array(text(), { maxLength: 3 }) },
    ),
    description: optional(text()),
  });

const AGENT: readonly Role[] = ['agent'];
const ADMIN: readonly Role[] = ['admin'];
const AUDITOR: readonly Role[] = ['auditor'];
const USER: readonly Role[] = ['user'];

/**
 * One strategy per operation of the OpenAPI document (the test fails for an operation without one, so
 * a new endpoint cannot escape). Erasure comes last: it deletes the records the others address.
 */
export const STRATEGIES: Readonly<Record<string, Strategy>> = {
  'GET /health': { roles: [] },
  'GET /metrics': { roles: [] },
  'GET /v1/me/stats': { roles: USER },
  'POST /v1/workspaces/{ws}/users/{userId}/messages': { roles: AGENT, body: messageBody },
  'GET /v1/workspaces/{ws}/users/{userId}/context': { roles: AGENT },
  'GET /v1/me/memories': { roles: USER },
  'DELETE /v1/me/memories/{memoryId}': { roles: USER },
  'POST /v1/me/memories/{memoryId}/approve': { roles: USER },
  'POST /v1/me/memories/{memoryId}/reject': { roles: USER, body: rejectBody },
  'POST /v1/me/memories/wipe': { roles: USER },
  'GET /v1/me/memory-settings': { roles: USER },
  'PUT /v1/me/memory-settings': {
    roles: USER,
    body: () =>
      record({
        enabled: fc.boolean(),
        pausedUntil: optional(fc.oneof(isoDate(), fc.constant(null))),
      }),
  },
  'GET /v1/me/identity-card': { roles: USER },
  'GET /v1/me/sessions/{sessionId}': { roles: USER },
  'GET /v1/me/activity': { roles: USER },
  'GET /v1/me/llm-usage': { roles: USER },
  'GET /v1/workspaces/{ws}/llm-usage': { roles: ADMIN },
  'GET /v1/workspaces/{ws}/memory-policy': { roles: ADMIN },
  'PUT /v1/workspaces/{ws}/memory-policy': { roles: ADMIN, body: policyBody },
  'GET /v1/workspaces/{ws}/agents': { roles: ADMIN },
  'PUT /v1/workspaces/{ws}/agents/{agentId}/memory': {
    roles: ADMIN,
    body: () => record({ enabled: fc.boolean() }),
  },
  'POST /v1/workspaces/{ws}/agents/{agentId}/keys': {
    roles: ADMIN,
    body: () => record({ name: optional(text()) }),
  },
  'GET /v1/workspaces/{ws}/agents/{agentId}/keys': { roles: ADMIN },
  'DELETE /v1/workspaces/{ws}/agents/{agentId}/keys/{keyId}': {
    roles: ADMIN,
    path: { keyId: () => fc.oneof(fc.uuid(), identifier(), hostileString()) },
  },
  'POST /v1/workspaces/{ws}/webhooks': { roles: ADMIN, body: webhookBody },
  'GET /v1/workspaces/{ws}/webhooks': { roles: ADMIN },
  'DELETE /v1/workspaces/{ws}/webhooks/{webhookId}': {
    roles: ADMIN,
    path: { webhookId: () => fc.oneof(fc.uuid(), identifier(), hostileString()) },
  },
  'GET /v1/workspaces/{ws}/webhooks/{webhookId}/deliveries': {
    roles: ADMIN,
    path: { webhookId: () => fc.oneof(fc.uuid(), identifier(), hostileString()) },
  },
  'GET /v1/workspaces/{ws}/memories': { roles: ADMIN },
  'POST /v1/workspaces/{ws}/memories/{memoryId}/approve': { roles: ADMIN },
  'POST /v1/workspaces/{ws}/memories/{memoryId}/reject': { roles: ADMIN, body: rejectBody },
  'POST /v1/workspaces/{ws}/users/{userId}/actions': { roles: AGENT, body: actionBody },
  'POST /v1/workspaces/{ws}/users/{userId}/actions/{actionId}/confirm': {
    roles: AGENT,
    body: () => record({ channel: identifier() }),
  },
  'POST /v1/workspaces/{ws}/users/{userId}/actions/{actionId}/execute': {
    roles: AGENT,
    body: () => record({ channel: optional(identifier()), result: optional(jsonObject()) }),
  },
  'POST /v1/workspaces/{ws}/users/{userId}/actions/{actionId}/abort': {
    roles: AGENT,
    body: () => record({ channel: optional(identifier()), reason: optional(text()) }),
  },
  'POST /v1/workspaces/{ws}/users/{userId}/actions/{actionId}/fail': {
    roles: AGENT,
    body: () => record({ error: text() }),
  },
  'GET /v1/workspaces/{ws}/users/{userId}/actions': { roles: AGENT },
  'GET /v1/workspaces/{ws}/users/{userId}/actions/{actionId}': { roles: AGENT },
  'GET /v1/tools/recall_actions': { roles: [] },
  'GET /v1/tools': { roles: [] },
  'POST /v1/workspaces/{ws}/users/{userId}/tools/{name}': {
    roles: AGENT,
    path: {
      name: () =>
        fc.oneof(
          {
            weight: 8,
            arbitrary: fc.constantFrom(
              'get_context',
              'record_message',
              'recall_actions',
              'list_memories',
              'forget_memory',
              'propose_action',
              'update_action',
              'get_action',
              'list_pending_actions',
            ),
          },
          { weight: 1, arbitrary: identifier() },
          { weight: 1, arbitrary: hostileString() },
        ),
    },
    // Any tool's arguments, sent to any tool; the writing ones' most often.
    body: (f) =>
      fc.oneof(
        { weight: 4, arbitrary: messageBody() },
        { weight: 2, arbitrary: actionBody() },
        record({
          actionId: f.actionIds.length > 0 ? ownedId(f, f.actionIds) : fc.uuid(),
          transition: fc.constantFrom('confirm', 'execute', 'abort', 'fail', 'undo'),
          channel: optional(identifier()),
          result: optional(jsonObject()),
          reason: optional(text()),
          error: optional(text()),
        }),
        record({ memoryId: f.memoryIds.length > 0 ? ownedId(f, f.memoryIds) : fc.uuid() }),
        record({
          sessionId: optional(identifier()),
          format: optional(fc.constantFrom('blocks', 'messages')),
        }),
        record({ limit: optional(fc.integer({ min: -1, max: 120 })), cursor: optional(text()) }),
      ),
  },
  'POST /v1/workspaces/{ws}/users/{userId}/tools/recall_actions': {
    roles: AGENT,
    body: () =>
      record({
        query: optional(text()),
        status: optional(fc.constantFrom(...ACTION_STATUSES)),
        days: optional(fc.integer({ min: -1, max: 100 })),
      }),
  },
  'GET /v1/workspaces/{ws}/users/{userId}/export': { roles: AUDITOR },
  'GET /v1/workspaces/{ws}/users/{userId}/memories/as-of/{timestamp}': { roles: AUDITOR },
  'POST /v1/workspaces/{ws}/users/{userId}/erasure': {
    roles: AUDITOR,
    // Mostly users nobody else addresses, so that the other operations keep their records.
    path: {
      userId: (f) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('carol', 'dave') },
          { weight: 1, arbitrary: fc.constant(f.otherUserId) },
          { weight: 2, arbitrary: hostileString() },
        ),
    },
  },
};
