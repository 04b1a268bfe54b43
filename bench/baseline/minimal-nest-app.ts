import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Injectable,
  Module,
  NotFoundException,
  Param,
  Post,
  Query,
  UnauthorizedException,
  ValidationPipe,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet from 'helmet';
import { jwtVerify } from 'jose';
import { Pool } from 'pg';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { Histogram, Registry } from 'prom-client';
import { readContextRows } from '../../apps/api/src/context/context-reads';
import { RecordMessageBody } from '../../apps/api/src/messages/record-message.dto';
import { queryAs } from '../../apps/api/src/read-models/query-as';
import { EXCERPT_LENGTH, excerpt } from '../../projections/activity/activity.entry';

/**
 * The least a NestJS 11 (express) app does for Engram's routes: the same HS256 bearer check with
 * jose, the same body DTO (RecordMessageBody, so the same class-validator rules) through the stock
 * ValidationPipe, the same 400 for a missing text. Nothing else: no logging, metrics, security
 * headers, error filter or interceptors. The bench measures Engram against it under the same load,
 * to tell what the framework costs from what Engram adds.
 *
 * With `MINIMAL_APP_PRODUCTION` it also does what a production service adds to every request, the
 * stock way: helmet's headers, a JSON log line per request (pino-http to stdout) and a latency
 * histogram by route (prom-client), i.e. what Engram's request path does with its own middleware.
 *
 * With `MINIMAL_APP_FASTIFY` it runs on NestJS's Fastify adapter (Engram's server since issue 18's round 7)
 * instead of Express, NestJS's default: the target is set against the Express app, the Fastify one
 * says what the framework costs on the server Engram uses (production middleware is Express-shaped: not
 * combined with it).
 *
 * With databases (the best real alternative, not only the framework): `MINIMAL_APP_WRITE_URL`
 * makes the message route store each accepted message as one row (one single-row INSERT into
 * `MINIMAL_APP_TABLE`, the events table's shape: what a service that only stores messages
 * does, with no log, order, idempotency, sealing or projection), and `MINIMAL_APP_READ_URL` serves
 * GET …/context as the same one statement Engram's context runs under the caller's identity (row
 * security), answered as the rows' JSON, with no assembly or rendering.
 *
 * With `MINIMAL_APP_READ_MODELS` (a table prefix) as well, the message route keeps the read models
 * current as it stores (the best real alternative to a service that projects): in the same statement
 * as the event row, the rows Engram's projections write for a message into copies of its tables —
 * the session's message, the session's counts, the user's stream stats and the activity entry. The
 * workspace's agent row (`seen_agents`) is left out: one row for every message of a workspace and
 * agent would serialize the appends on its lock, a cost Engram's batched projection does not pay.
 */
const secret = new TextEncoder().encode(process.env.ENGRAM_JWT_SECRET ?? '');
const writes = process.env.MINIMAL_APP_WRITE_URL
  ? new Pool({ connectionString: process.env.MINIMAL_APP_WRITE_URL, max: 32 })
  : undefined;
const reads = process.env.MINIMAL_APP_READ_URL
  ? new Pool({ connectionString: process.env.MINIMAL_APP_READ_URL, max: 10 })
  : undefined;
const table = process.env.MINIMAL_APP_TABLE ?? 'bench_minimal_events';
const readModels = process.env.MINIMAL_APP_READ_MODELS;
let position = 0;

/**
 * The event row and the rows a message adds to the read models a context reads, in one statement
 * (one round trip, one commit): what a service projecting inline does for a user's message.
 */
function storedWithReadModels(prefix: string): string {
  return `WITH event AS (
      INSERT INTO ${table} (global_position, stream_id, stream_revision, event_id, type,
          schema_version, data, metadata, owner_workspace_id, owner_user_id)
      VALUES ($1, $2, 0, $3, 'MessageRecorded', 1, $4, $5, $6, $7)
    ), message AS (
      INSERT INTO ${prefix}session_messages (workspace_id, user_id, message_id, session_id, role,
          channel, text, agent_id, trace_id, occurred_at, position)
      VALUES ($6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $1)
    ), session AS (
      INSERT INTO ${prefix}sessions AS s (workspace_id, user_id, session_id, message_count,
          first_message_at, last_message_at, last_position)
      VALUES ($6, $7, $9, 1, $15, $15, $1)
      ON CONFLICT (workspace_id, user_id, session_id) DO UPDATE
        SET message_count = s.message_count + 1, last_message_at = excluded.last_message_at,
            last_position = excluded.last_position
    ), stats AS (
      INSERT INTO ${prefix}user_stream_stats AS u (workspace_id, user_id, event_count, message_count,
          first_event_at, last_event_at, last_position)
      VALUES ($6, $7, 1, 1, $15, $15, $1)
      ON CONFLICT (workspace_id, user_id) DO UPDATE
        SET event_count = u.event_count + 1, message_count = u.message_count + 1,
            last_event_at = excluded.last_event_at, last_position = excluded.last_position
    )
    INSERT INTO ${prefix}activity_events (workspace_id, user_id, position, event_type, occurred_at,
        channel, trace_id, group_key, details)
    VALUES ($6, $7, $1, 'MessageRecorded', $15, $11, $14, $14, $16)`;
}

@Injectable()
class BearerGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string> }>()
      .headers.authorization;
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!token) throw new UnauthorizedException('Missing bearer token');
    try {
      await jwtVerify(token, secret, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    } catch {
      throw new UnauthorizedException('Invalid token');
    }
    return true;
  }
}

@Controller('v1/workspaces/:ws/users/:userId')
class MessagesController {
  @Post('messages')
  @HttpCode(202)
  async record(
    @Param('ws') workspaceId: string,
    @Param('userId') userId: string,
    @Body() body: RecordMessageBody,
  ): Promise<{ messageId: string; position?: number }> {
    const messageId = body.messageId ?? randomUUID();
    if (!writes) return { messageId };
    position += 1;
    if (readModels !== undefined) {
      const occurredAt = new Date().toISOString();
      const traceId = body.traceId ?? randomUUID();
      await writes.query({
        name: 'stored-with-read-models',
        text: storedWithReadModels(readModels),
        values: [
          position,
          `${workspaceId}/${userId}/message/${messageId}.${position}`,
          randomUUID(),
          JSON.stringify(body),
          JSON.stringify({ workspaceId, userId, traceId, occurredAt }),
          workspaceId,
          userId,
          messageId,
          body.sessionId,
          body.role,
          body.channel,
          body.text,
          body.agentId ?? null,
          traceId,
          occurredAt,
          JSON.stringify(
            body.role === 'user'
              ? { role: body.role, excerpt: excerpt(body.text, EXCERPT_LENGTH) }
              : { role: body.role },
          ),
        ],
      });
      return { messageId, position };
    }
    await writes.query(
      `INSERT INTO ${table} (global_position, stream_id, stream_revision, event_id, type,
          schema_version, data, metadata, owner_workspace_id, owner_user_id)
       VALUES ($1, $2, 0, $3, 'MessageRecorded', 1, $4, $5, $6, $7)`,
      [
        position,
        `${workspaceId}/${userId}/message/${messageId}.${position}`,
        randomUUID(),
        JSON.stringify(body),
        JSON.stringify({ workspaceId, userId, occurredAt: new Date().toISOString() }),
        workspaceId,
        userId,
      ],
    );
    return { messageId, position };
  }

  @Get('context')
  async context(
    @Param('ws') workspaceId: string,
    @Param('userId') userId: string,
    @Query('sessionId') sessionId?: string,
  ): Promise<unknown> {
    if (!reads) throw new NotFoundException();
    const pool = reads;
    return readContextRows(
      (sql, params) => queryAs(pool, { workspaceId, userId, roles: ['agent'] }, sql, params),
      { workspaceId, userId },
      { sessionId },
    );
  }
}

@Module({
  controllers: [MessagesController],
  providers: [{ provide: APP_GUARD, useClass: BearerGuard }],
})
class MinimalModule {}

/** helmet, pino-http and a prom-client histogram, each with its stock settings. */
function useProductionMiddleware(app: NestExpressApplication): void {
  app.use(helmet());
  app.use(pinoHttp({ logger: pino() }));
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status_code'],
    registers: [new Registry()],
  });
  app.use(
    (
      request: { method: string; route?: { path?: string } },
      response: { statusCode: number; once: (event: string, listener: () => void) => void },
      next: () => void,
    ) => {
      const stop = latency.startTimer();
      response.once('finish', () =>
        stop({
          method: request.method,
          route: request.route?.path ?? '',
          status_code: String(response.statusCode),
        }),
      );
      next();
    },
  );
}

async function createMinimalApp(): Promise<INestApplication> {
  if (process.env.MINIMAL_APP_FASTIFY) {
    return NestFactory.create<NestFastifyApplication>(MinimalModule, new FastifyAdapter(), {
      logger: false,
    });
  }
  const app = await NestFactory.create<NestExpressApplication>(MinimalModule, { logger: false });
  if (process.env.MINIMAL_APP_PRODUCTION) useProductionMiddleware(app);
  return app;
}

async function main(): Promise<void> {
  const app = await createMinimalApp();
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
  );
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  // A clean exit on the bench's SIGTERM (so that --cpu-prof, under ENGRAM_BENCH_CPU_PROF, writes its profile).
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => Promise.all([writes?.end(), reads?.end()]))
        .then(() => process.exit(0)),
  );
  const { port } = app.getHttpServer().address() as { port: number };
  // The line startEngram waits for.
  console.log(`minimal app listening on http://127.0.0.1:${port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
