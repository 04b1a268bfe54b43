import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { EngramMetrics, createEngramLogger, requestLogging } from '@engram/observability';
import type { Runtime } from '@engram/platform';
import { AppModule } from './app.module';
import { serveConsole } from './console/serve-console';
import { guardRequestEdge } from './http/request-edge';
import { useTraceIdHeader } from './http/trace-id-header';
import { validationPipe } from './http/validation.pipe';
import { useSecurityHeaders } from './security/security-headers';

/**
 * Builds the HTTP application (used by main and by the end-to-end tests). It logs JSON through
 * `options.logger`, by default a new one at LOG_LEVEL on stdout; `false` keeps it silent.
 */
export async function createApp(
  runtime: Runtime,
  options: { logger?: false | PinoLogger } = {},
): Promise<NestExpressApplication> {
  const logger =
    options.logger ||
    createEngramLogger({
      level: options.logger === false ? 'silent' : runtime.config.logLevel,
      service: 'engram-api',
    });
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRuntime(runtime, logger),
    // No urlencoded parser: bodies are JSON only (guardRequestEdge).
    { bufferLogs: true, bodyParser: false },
  );
  app.useLogger(app.get(Logger));
  // NestFactory.create (unlike createApplicationContext) leaves the buffered start-up logs unflushed.
  app.flushLogs();
  // First, so that every request is logged with its correlation id, those refused by a later
  // middleware (415, malformed JSON, 413) too.
  app.use(requestLogging(logger));
  app.use(app.get(EngramMetrics).http.middleware);
  useSecurityHeaders(app);
  guardRequestEdge(app);
  app.useBodyParser('json', { limit: '256kb' });
  app.useGlobalPipes(validationPipe);
  useTraceIdHeader(app);
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
