import type { Server, ServerResponse } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';

export type ShutdownOptions = Readonly<{
  log: (message: string) => void;
  /** The API's HTTP server: it stops taking requests first. */
  server?: Server;
  /** Past this, the process exits with 1 whatever is still running. */
  timeoutMs?: number;
}>;

/**
 * On SIGTERM or SIGINT: stop taking requests (the listener closes, idle keep-alive connections are
 * dropped, requests in flight finish), then close the application (the worker finishes its batch and
 * checkpoint and gives its leases back, pools close, an embedded PostgreSQL stops), then exit 0.
 * Nest's own shutdown hooks are not used: they close the HTTP server last and re-raise the signal.
 */
export function closeOnSignals(app: INestApplicationContext, options: ShutdownOptions): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      options.log(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    options.log(`${signal}: stopping`);
    setTimeout(() => {
      options.log('Shutdown took too long: exiting');
      process.exit(1);
    }, options.timeoutMs ?? 30_000).unref();
    void (async () => {
      try {
        if (options.server) {
          await stopTakingRequests(options.server);
          options.log('Stopped taking requests; requests in flight answered');
        }
        await app.close();
        options.log('Stopped cleanly');
        process.exit(0);
      } catch (error) {
        options.log(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      }
    })();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Keep-alive clients are told to leave with their next answer; idle connections are dropped. */
function stopTakingRequests(server: Server): Promise<void> {
  server.on('request', (_request, response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  });
  return new Promise((resolve) => {
    const dropIdle = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(dropIdle);
      resolve();
    });
    server.closeIdleConnections();
  });
}
