import type { Server } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { trackHttpServer } from './http-drain';

export type ShutdownOptions = Readonly<{
  log: (message: string) => void;
  /** The API's HTTP server (listening already): it is drained first. */
  server?: Server;
  /** Past this, the process exits with 1 whatever is still running. */
  timeoutMs?: number;
}>;

/**
 * On SIGTERM or SIGINT: drain the HTTP server (the listener closes; every request received, in flight
 * or arriving on an open keep-alive connection, is answered, with `Connection: close`; see
 * trackHttpServer), and only then close the application (the worker finishes its batch and
 * checkpoint and gives its leases back, pools close, an embedded PostgreSQL stops), so no request
 * loses its database mid-way; then exit 0. Nest's own shutdown hooks are not used: they close the
 * HTTP server last and re-raise the signal.
 */
export function closeOnSignals(app: INestApplicationContext, options: ShutdownOptions): void {
  const http = options.server ? trackHttpServer(options.server) : undefined;
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
        if (http) {
          await http.drain();
          options.log('Stopped taking requests; every request received was answered');
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
