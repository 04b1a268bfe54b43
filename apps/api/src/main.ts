import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@engram/config';
import { prepareRuntime } from '@engram/platform';
import { createApp } from './create-app';

async function main(): Promise<void> {
  const logger = new Logger('Engram');
  const config = loadConfig();
  const runtime = await prepareRuntime(config, (message) => logger.log(message));
  const app = await createApp(runtime);
  await app.listen(config.port, '0.0.0.0');
  const url = await app.getUrl();
  logger.log(
    `Engram listening on ${url.replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost')} ` +
      `(events: ${config.eventStoreUrl ? 'EventStoreDB' : 'PostgreSQL'}, database: ${runtime.embedded ? 'embedded' : 'DATABASE_URL'}, ` +
      `worker: ${config.runWorker ? 'in process' : 'separate'}) — health at /health, API docs at /docs`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
