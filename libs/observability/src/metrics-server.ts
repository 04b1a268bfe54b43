import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type MetricsSource = Readonly<{ contentType: string; render: () => Promise<string> }>;

export type MetricsServer = Readonly<{ port: number; close: () => Promise<void> }>;

/** A bare HTTP server answering `GET /metrics` only: for the worker, which has no HTTP API. */
export async function startMetricsServer(
  metrics: MetricsSource,
  port: number,
  host = '0.0.0.0',
): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'Content-Type': metrics.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
