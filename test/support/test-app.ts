import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { mintToken } from '@engram/auth';
import type { Clock, Role } from '@engram/domain';
import { createApp } from '../../apps/api/src/create-app';
import { createTestDatabase, type TestDatabase } from './test-database';
import { TEST_JWT_SECRET, embeddedTestRuntime, testRuntime } from './test-runtime';

export type TestApp = Readonly<{
  app: NestFastifyApplication;
  http: ReturnType<NestFastifyApplication['getHttpServer']>;
  database: TestDatabase;
  token: (claims: { userId: string; workspaceId: string; roles: Role[] }) => Promise<string>;
  close: () => Promise<void>;
}>;

/**
 * The real HTTP application on a fresh database, projections running in process; silent unless given
 * a logger (or ENGRAM_TEST_LOGS=1).
 */
export async function startTestApp(
  overrides: Record<string, string> = {},
  options: { logger?: Logger; database?: TestDatabase; embedded?: boolean; clock?: Clock } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const runtime = {
    ...(options.embedded ? embeddedTestRuntime : testRuntime)(database, overrides),
    // The API's and the worker's time (tests move it instead of waiting).
    ...(options.clock ? { clock: options.clock } : {}),
  };
  // ENGRAM_TEST_LOGS=1 shows the application's logs (worker errors included).
  const app = await createApp(runtime, {
    logger: options.logger ?? (process.env.ENGRAM_TEST_LOGS ? undefined : false),
  });
  await app.init();
  // Fastify answers once its plugins are loaded (what listen waits for).
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    http: app.getHttpServer(),
    database,
    token: (claims) => mintToken(TEST_JWT_SECRET, claims),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/**
 * An agent (`token`) records a user's message in session `s1` on the web channel through HTTP
 * (`extra` adds or replaces fields), expecting 202; the response gives its position.
 */
export function postUserMessage(
  t: TestApp,
  token: string,
  where: Readonly<{ workspaceId: string; userId: string }>,
  text: string,
  extra: Record<string, unknown> = {},
) {
  return request(t.http)
    .post(`/v1/workspaces/${where.workspaceId}/users/${where.userId}/messages`)
    .auth(token, { type: 'bearer' })
    .send({
      messageId: randomUUID(),
      sessionId: 's1',
      role: 'user',
      channel: 'web',
      text,
      ...extra,
    })
    .expect(202);
}

/** Polls until `probe` returns a value that passes `done` (projections are asynchronous). */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Events stored for one user, read straight from the event store table (what a rejected request must not add). */
export async function countUserEvents(
  t: TestApp,
  workspaceId: string,
  userId: string,
  /** Only events of this type: what a request wrote, apart from the background work it starts. */
  type?: string,
): Promise<number> {
  const client = new Client({ connectionString: t.database.ownerUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      'SELECT count(*) FROM events WHERE owner_workspace_id = $1 AND owner_user_id = $2' +
        ' AND ($3::text IS NULL OR type = $3)',
      [workspaceId, userId, type ?? null],
    );
    return Number(result.rows[0]!.count);
  } finally {
    await client.end();
  }
}

/**
 * A user's event count once their background work (extraction, summary, identity card, each with its
 * ledger record) has stopped adding to it: the same count `quietMs` apart. What "wrote nothing"
 * compares with, on a machine where that work may land during the check.
 */
export async function settledUserEvents(
  t: TestApp,
  workspaceId: string,
  userId: string,
  quietMs = 1_000,
): Promise<number> {
  let count = await countUserEvents(t, workspaceId, userId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = await countUserEvents(t, workspaceId, userId);
    if (now === count) return count;
    count = now;
  }
}
