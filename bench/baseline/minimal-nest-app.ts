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
 */
const secret = new TextEncoder().encode(process.env.ENGRAM_JWT_SECRET ?? '');
const writes = process.env.MINIMAL_APP_WRITE_URL
  ? new Pool({ connectionString: process.env.MINIMAL_APP_WRITE_URL, max: 32 })
  : undefined;
const reads = process.env.MINIMAL_APP_READ_URL
  ? new Pool({ connectionString: process.env.MINIMAL_APP_READ_URL, max: 10 })
  : undefined;
const table = process.env.MINIMAL_APP_TABLE ?? 'bench_minimal_events';
let position = 0;

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
