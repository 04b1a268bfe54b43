import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@engram/config';
import { createEngramLogger } from '@engram/observability';
import { closeOnSignals, prepareRuntime } from '@engram/platform';
import { devTokensEnabled } from './console/console.module';
import { createApp } from './create-app';
import { listenUrl } from './listen-url';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createEngramLogger({ level: config.logLevel, service: 'engram-api' });
  const logger = log.child({ context: 'Engram' });
  const runtime = await prepareRuntime(config, (message) => logger.info(message));
  const app = await createApp(runtime, { logger: log });
  // 127.0.0.1 unless HOST says otherwise: the embedded default is for this machine.
  await app.listen(config.port, config.host);
  closeOnSignals(app, { log: (message) => logger.info(message), server: app.getHttpServer() });
  const url = listenUrl(app.getHttpServer().address() as AddressInfo);
  logger.info(
    `Engram listening on ${url} ` +
      `(events: ${config.eventStoreUrl ? 'EventStoreDB' : 'PostgreSQL'}, database: ${runtime.embedded ? 'embedded' : 'DATABASE_URL'}, ` +
      `worker: ${config.runWorker ? 'in process' : 'separate'}${devTokensEnabled(runtime) ? ', dev tokens on' : ''}) — ` +
      'health at /health, metrics at /metrics, API docs at /docs',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
