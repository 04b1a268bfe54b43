import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { EngramMetrics, createEngramLogger } from '@engram/observability';
import type { Runtime } from '@engram/platform';
import { AppModule } from './app.module';
import { serveConsole } from './console/serve-console';
import { createHttpAdapter } from './http/http-adapter';
import { refuseBeforeRouting, requestEdge, type RequestEdge } from './http/request-edge';
import { useTraceIdHeader } from './http/trace-id-header';
import { validationPipe } from './http/validation.pipe';

/**
 * Builds the HTTP application (used by main and by the end-to-end tests). It logs JSON through
 * `options.logger`, by default a new one at LOG_LEVEL on stdout; `false` keeps it silent.
 */
export async function createApp(
  runtime: Runtime,
  options: { logger?: false | PinoLogger } = {},
): Promise<NestFastifyApplication> {
  const logger =
    options.logger ||
    createEngramLogger({
      level: options.logger === false ? 'silent' : runtime.config.logLevel,
      service: 'engram-api',
    });
  // The router's refusals go through the request edge, made once the app (its metrics) exists.
  const late: { edge?: RequestEdge } = {};
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRuntime(runtime, logger),
    createHttpAdapter(refuseBeforeRouting(() => late.edge)),
    // Nest's parsers are not registered: the adapter's one JSON parser reads every body.
    { bufferLogs: true, bodyParser: false },
  );
  app.useLogger(app.get(Logger));
  // NestFactory.create (unlike createApplicationContext) leaves the buffered start-up logs unflushed.
  app.flushLogs();
  const fastify = app.getHttpAdapter().getInstance();
  // The first hook: every request is logged with its correlation id and timed, those refused by the
  // body parser (malformed JSON, 413) or the edge itself (415) too.
  late.edge = requestEdge(logger, app.get(EngramMetrics).http);
  fastify.addHook('onRequest', late.edge);
  app.useGlobalPipes(validationPipe);
  useTraceIdHeader(fastify);
  serveConsole(app);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Engram')
      .setDescription('Event-sourced memory backend for AI assistants. Contract: API.md.')
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  return app;
}
