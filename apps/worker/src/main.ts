import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@engram/config';
import { prepareRuntime } from '@engram/platform';
import { WorkerModule } from './worker.module';

/** The projection worker on its own (docker-compose, scale-out); needs DATABASE_URL. */
async function main(): Promise<void> {
  const logger = new Logger('EngramWorker');
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL',
      'is required by the separate worker (the embedded default runs the worker inside the API)',
    );
  }
  const runtime = await prepareRuntime(config, (message) => logger.log(message));
  const app = await NestFactory.createApplicationContext(WorkerModule.forRuntime(runtime));
  app.enableShutdownHooks();
  logger.log('Worker running');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
