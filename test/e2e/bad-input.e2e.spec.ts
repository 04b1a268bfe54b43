import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import type { Role } from '@engram/domain';
import { PROJECTIONS } from '@engram/projections';
import {
  expectErrorBody,
  send,
  tokenCache,
  type Body,
  type Reply,
} from '../support/bad-input/api-client';
import { EventLedger } from '../support/bad-input/event-ledger';
import { operationsOf, type Operation } from '../support/bad-input/openapi-operations';
import { detectMemory, proposeAction } from '../support/bad-input/records';
import {
  missingStrategies,
  requestCases,
  type Auth,
  type RequestCase,
} from '../support/bad-input/request-cases';
import { STRATEGIES, type Fixtures } from '../support/bad-input/strategies';
import { propertyParameters } from '../support/property-parameters';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const RUNS_PER_OPERATION = 30;
const WS = 'w-bad';

/**
 * Any input, on any endpoint of the OpenAPI document: never a 5xx (save the documented 503 of a
 * minPosition wait), every 4xx shaped `{ statusCode, error, message }`, and a refused request writes
 * nothing. Endpoints are enumerated from the document, so a new one is covered or the test fails.
 */
describe('bad input on every endpoint (property-based)', () => {
  let t: TestApp;
  let ledger: EventLedger;
  let operations: Operation[];
  let fixtures: Fixtures;
  let tokenFor: ReturnType<typeof tokenCache>;
  let requestNumber = 0;

  async function authorization(auth: Auth, roles: readonly Role[]): Promise<string | undefined> {
    const own = roles.length > 0 ? roles : (['user'] as const);
    switch (auth) {
      case 'right':
        return `Bearer ${await tokenFor(own, WS)}`;
      case 'wrong-role':
        return `Bearer ${await tokenFor(own.includes('agent') ? ['auditor'] : ['agent'], WS)}`;
      case 'other-workspace':
        return `Bearer ${await tokenFor(own, 'another-workspace')}`;
      case 'garbage':
        return 'Bearer not.a.jwt';
      case 'none':
        return undefined;
    }
  }

  function expectAllowedStatus(operation: Operation, call: RequestCase, reply: Reply): void {
    // Every read of a read model takes minPosition (ReadQuery).
    const waitedForPosition = /(^|&)minPosition=/.test(call.query);
    if (reply.status === 503 && waitedForPosition) {
      expect(reply.headers['retry-after']).toBeDefined();
      return;
    }
    if (reply.status < 200 || reply.status >= 500) {
      throw new Error(`${operation.key} answered ${reply.status}: ${reply.text.slice(0, 500)}`);
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    tokenFor = tokenCache(t);
    ledger = await EventLedger.open(t.database.ownerUrl);
    const document = await request(t.http).get('/docs/openapi.json').expect(200);
    operations = operationsOf(document.body);
    fixtures = await createFixtures();
  }, 60_000);

  afterAll(async () => {
    await ledger?.close();
    await t?.close();
  });

  /** Each user's actions (pending and confirmed) and memories, so that ids reach real aggregates. */
  async function createFixtures(): Promise<Fixtures> {
    const agent = await tokenFor(['agent'], WS);
    const actionIds: string[] = [];
    const memoryIds: string[] = [];
    for (const userId of ['alice', 'bob']) {
      const owner = { workspaceId: WS, userId };
      for (const requiresConfirmation of [true, false]) {
        actionIds.push(await proposeAction(t, owner, agent, requiresConfirmation));
      }
      for (const mode of ['auto', 'admin'] as const) {
        memoryIds.push(await detectMemory(t, owner, `${userId} préfère le mode ${mode}`, mode));
      }
    }
    return {
      workspaceId: WS,
      userId: 'alice',
      otherUserId: 'bob',
      sessionId: 'sess-1',
      actionIds,
      memoryIds,
    };
  }

  it('has a strategy for every operation of the OpenAPI document, and every parameter', () => {
    const uncovered = operations.flatMap((operation) => {
      const strategy = STRATEGIES[operation.key];
      if (!strategy) return [`${operation.key}: no strategy`];
      return missingStrategies(operation, strategy).map((what) => `${operation.key}: ${what}`);
    });
    expect(uncovered).toEqual([]);
    const stale = Object.keys(STRATEGIES).filter(
      (key) => !operations.some((operation) => operation.key === key),
    );
    expect(stale).toEqual([]);
  });

  /** A well-formed path to `operation` on the fixtures; erasure is pointed at a user nobody else addresses. */
  function plausiblePath(operation: Operation): string {
    const values: Record<string, string> = {
      ws: WS,
      userId: operation.key.endsWith('/erasure') ? 'carol' : fixtures.userId,
      sessionId: fixtures.sessionId,
      agentId: 'chat-web',
      actionId: fixtures.actionIds[0]!,
      memoryId: fixtures.memoryIds[0]!,
      timestamp: '2026-03-01T10:00:00Z',
      keyId: randomUUID(),
      webhookId: randomUUID(),
      name: 'get_context',
    };
    return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
  }

  async function sendPlausibly(
    operation: Operation,
    extra: { query?: string; body?: Body; headers?: Record<string, string> },
  ): Promise<Reply> {
    const path = plausiblePath(operation);
    return send(t, {
      method: operation.method,
      url: extra.query ? `${path}?${extra.query}` : path,
      authorization: await authorization('right', STRATEGIES[operation.key]!.roles),
      headers: { 'X-Correlation-Id': `edge-${randomUUID()}`, ...extra.headers },
      body: extra.body ?? { kind: 'none' },
    });
  }

  it('refuses a query parameter the operation does not declare, on every operation alike', async () => {
    const answers = await Promise.all(
      operations.map(async (operation) => {
        const reply = await sendPlausibly(operation, { query: 'limt=5' });
        return `${operation.key}: ${reply.status} ${reply.status === 400 ? expectErrorBody(reply).message.split(' (')[0] : reply.text.slice(0, 100)}`;
      }),
    );
    expect(answers).toEqual(
      operations.map(
        (operation) => `${operation.key}: 400 query parameter limt is not accepted here`,
      ),
    );
  });

  it('answers 415 to a body that is not JSON, on every operation, and writes nothing', async () => {
    const notJson = [
      ['application/x-www-form-urlencoded', 'text=bonjour&role=user'],
      ['text/plain', 'bonjour'],
    ] as const;
    for (const operation of operations) {
      for (const [contentType, text] of notJson) {
        const correlationId = `not-json-${randomUUID()}`;
        const before = await ledger.snapshot();
        const reply = await sendPlausibly(operation, {
          body: { kind: 'raw', contentType, text },
          headers: { 'X-Correlation-Id': correlationId },
        });
        expect([operation.key, reply.status]).toEqual([operation.key, 415]);
        expect(expectErrorBody(reply).message).toBe(
          `Request bodies must be application/json: not ${contentType}`,
        );
        expect(await ledger.changesSince(before, correlationId)).toEqual({
          appendedByRequest: 0,
          removed: 0,
        });
      }
    }
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses a %s key anywhere in a body with a 400, and writes nothing',
    async (key) => {
      const operation = operations.find(
        (candidate) => candidate.key === 'POST /v1/workspaces/{ws}/users/{userId}/actions',
      )!;
      for (const text of [
        `{"tool":"t","summary":"s","channel":"web","${key}":{"polluted":true}}`,
        `{"tool":"t","summary":"s","channel":"web","input":{"a":[{"${key}":{"polluted":true}}]}}`,
      ]) {
        const correlationId = `proto-${randomUUID()}`;
        const before = await ledger.snapshot();
        const reply = await sendPlausibly(operation, {
          body: { kind: 'raw', contentType: 'application/json', text },
          headers: { 'X-Correlation-Id': correlationId },
        });
        expect(reply.status).toBe(400);
        expect(expectErrorBody(reply).message).toMatch(`must not have a key named ${key}`);
        expect(await ledger.changesSince(before, correlationId)).toEqual({
          appendedByRequest: 0,
          removed: 0,
        });
      }
    },
  );

  it('answers headers too large with a 431 and the usual JSON error body', async () => {
    const reply = await send(t, {
      method: 'GET',
      url: '/health',
      headers: { 'X-Padding': 'x'.repeat(20 * 1024) },
      body: { kind: 'none' },
    });
    expect(reply.status).toBe(431);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(expectErrorBody(reply).message).toMatch(/headers are larger than the 16 KB/);
  });

  it.each(Object.keys(STRATEGIES))(
    '%s: never a 5xx, a useful 4xx that writes nothing',
    async (key) => {
      const operation = operations.find((candidate) => candidate.key === key);
      if (!operation) throw new Error(`${key} is not in the OpenAPI document`);
      await fc.assert(
        fc.asyncProperty(requestCases(operation, STRATEGIES[key]!, fixtures), async (call) => {
          requestNumber += 1;
          const correlationId = `bad-input-${requestNumber}-${randomUUID()}`;
          const before = await ledger.snapshot();
          const reply = await send(t, {
            method: operation.method,
            url: call.query ? `${call.path}?${call.query}` : call.path,
            authorization: await authorization(call.auth, STRATEGIES[operation.key]!.roles),
            headers: { 'X-Correlation-Id': correlationId },
            body: call.body,
          });
          expectAllowedStatus(operation, call, reply);
          if (reply.status >= 400) {
            expectErrorBody(reply);
            if (reply.status < 500) {
              expect(await ledger.changesSince(before, correlationId)).toEqual({
                appendedByRequest: 0,
                removed: 0,
              });
            }
          }
        }),
        propertyParameters(RUNS_PER_OPERATION),
      );
    },
  );

  it('leaves no projection or process manager stuck on an event it accepted', async () => {
    const names = PROJECTIONS.map((projection) => projection.name);
    const behind = await eventually(
      () => ledger.checkpointsBehind(names),
      (stuck) => stuck.length === 0,
      20_000,
    );
    expect(behind).toEqual([]);
    expect(await ledger.parkedCount()).toBe(0);
  });
});
