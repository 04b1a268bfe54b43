import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from '@engram/config';
import { createEngramLogger } from '@engram/observability';
import { closeOnSignals, prepareRuntime } from '@engram/platform';
import { WorkerModule } from './worker.module';

/** The projection worker on its own (docker-compose, scale-out); needs DATABASE_URL. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createEngramLogger({ level: config.logLevel, service: 'engram-worker' });
  const logger = log.child({ context: 'EngramWorker' });
  if (!config.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL',
      'is required by the separate worker (the embedded default runs the worker inside the API)',
    );
  }
  const runtime = await prepareRuntime(config, (message) => logger.info(message));
  const app = await NestFactory.createApplicationContext(WorkerModule.forRuntime(runtime, log), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  closeOnSignals(app, { log: (message) => logger.info(message) });
  logger.info('Worker running');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
