import 'reflect-metadata';
import { loadConfig } from '@engram/config';
import { createEngramLogger } from '@engram/observability';
import { closeOnSignals, prepareRuntime } from '@engram/platform';
import { createApp } from './create-app';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createEngramLogger({ level: config.logLevel, service: 'engram-api' });
  const logger = log.child({ context: 'Engram' });
  const runtime = await prepareRuntime(config, (message) => logger.info(message));
  const app = await createApp(runtime, { logger: log });
  await app.listen(config.port, '0.0.0.0');
  closeOnSignals(app, { log: (message) => logger.info(message), server: app.getHttpServer() });
  const url = await app.getUrl();
  logger.info(
    `Engram listening on ${url.replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost')} ` +
      `(events: ${config.eventStoreUrl ? 'EventStoreDB' : 'PostgreSQL'}, database: ${runtime.embedded ? 'embedded' : 'DATABASE_URL'}, ` +
      `worker: ${config.runWorker ? 'in process' : 'separate'}) — health at /health, metrics at /metrics, API docs at /docs`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
