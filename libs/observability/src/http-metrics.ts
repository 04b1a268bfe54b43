import type { IncomingMessage, ServerResponse } from 'node:http';
import { Histogram, type Registry } from 'prom-client';
import { routeTemplate, type RoutedRequest } from './route-template';

/** From 1 ms to 5 s: the API answers in milliseconds; what takes seconds is what to look at. */
const LATENCY_BUCKETS_SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

export class HttpMetrics {
  private readonly latency: Histogram<'method' | 'route' | 'status_code'>;

  constructor(registry: Registry) {
    this.latency = new Histogram({
      name: 'engram_http_request_duration_seconds',
      help: 'HTTP request latency, by method, route template and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers: [registry],
    });
  }

  /**
   * Called by the API's first Fastify hook with the Fastify request and the Node response: times
   * each request until its response is sent (or the client went away).
   */
  readonly observe = (
    request: Pick<IncomingMessage, 'method'> & RoutedRequest,
    response: ServerResponse,
  ): void => {
    const started = process.hrtime.bigint();
    let observed = false;
    const observe = () => {
      if (observed) return;
      observed = true;
      this.latency.observe(
        {
          method: request.method ?? 'UNKNOWN',
          route: routeTemplate(request),
          status_code: String(response.statusCode),
        },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    response.once('finish', observe);
    response.once('close', observe);
  };
}
