import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Runtime } from '@engram/platform';
import { AppModule } from './app.module';
import { serveConsole } from './console/serve-console';
import { validationPipe } from './http/validation.pipe';

/** Builds the HTTP application (used by main and by the end-to-end tests). */
export async function createApp(
  runtime: Runtime,
  options: { logger?: false } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRuntime(runtime), {
    ...(options.logger === false ? { logger: false } : {}),
  });
  app.useBodyParser('json', { limit: '256kb' });
  app.useGlobalPipes(validationPipe);
  app.enableShutdownHooks();
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
