import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { storage, type Store } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { CORRELATION_ID_HEADER, correlationIdFrom } from './correlation-id';
import { routeTemplate, type RoutedRequest } from './route-template';

/** Set by the API on answers that name an interaction's trace (messages, actions). */
export const TRACE_ID_HEADER = 'x-trace-id';

/** The Fastify request (its headers are the Node request's): what a request line needs of it. */
type LoggedRequest = Pick<IncomingMessage, 'headers' | 'method' | 'url'> &
  RoutedRequest & { id?: unknown };

/**
 * nestjs-pino settings of the API: the application's own Logger calls go to `logger`; the request
 * lines are written by requestLogging (nestjs-pino applies no middleware of its own).
 */
export function httpLoggingParams(logger: Logger): Params {
  return { pinoHttp: { logger }, forRoutes: [] };
}

/**
 * Called by the API's first Fastify hook (onRequest, where the route is already known) with the
 * Fastify request and the Node response: one line per request with method, route template, status, time,
 * `correlationId` and, when the answer names one, `traceId`; no URL, query string, header or body.
 * Logger calls made while the request is handled carry its method and correlation id (nestjs-pino's
 * async context). The lines are those pino-http wrote here before, with less work per request: no
 * child logger unless the request logs more than its line, no serializer run, no per-request option
 * handling.
 */
export function requestLogging(logger: Logger) {
  return (request: LoggedRequest, response: ServerResponse, next: () => void): void => {
    const started = Date.now();
    const correlationId = correlationIdFrom(request.headers);
    // Written back so that the events a request records carry the id its log lines carry.
    request.headers[CORRELATION_ID_HEADER] = correlationId;
    request.id = correlationId;
    response.setHeader(CORRELATION_ID_HEADER, correlationId);
    const bindings: RequestBindings = { req: { method: request.method }, correlationId };
    // Prometheus scrapes every few seconds: its requests are counted, not logged.
    if ((request.url ?? '').split('?')[0] !== '/metrics') {
      let written = false;
      const complete = () => {
        if (written) return;
        written = true;
        writeRequestLine(logger, bindings, request, response, Date.now() - started);
      };
      response.once('finish', complete);
      response.once('close', complete);
    }
    storage.run(new RequestStore(logger, bindings), next);
  };
}

type RequestBindings = Readonly<{ req: { method: string | undefined }; correlationId: string }>;

/**
 * nestjs-pino's per-request store with the request's child logger made on first use: most requests
 * log nothing but their line, which is written with the same fields without a child logger.
 */
class RequestStore implements Pick<Store, 'logger'> {
  private child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: RequestBindings,
  ) {}

  get logger(): Logger {
    return (this.child ??= this.parent.child(this.bindings));
  }

  set logger(logger: Logger) {
    this.child = logger;
  }
}

function writeRequestLine(
  log: Logger,
  bindings: RequestBindings,
  request: LoggedRequest,
  response: ServerResponse,
  responseTime: number,
): void {
  const statusCode = response.statusCode;
  const traceId = response.getHeader(TRACE_ID_HEADER);
  // The request's fields first, as a child logger would write them.
  const outcome = {
    ...bindings,
    res: { statusCode },
    ...(statusCode >= 500 ? { err: new Error(`failed with status code ${statusCode}`) } : {}),
    responseTime,
    route: routeTemplate(request),
    ...(typeof traceId === 'string' ? { traceId } : {}),
  };
  if (statusCode >= 500) log.error(outcome, 'request errored');
  else if (statusCode >= 400) log.warn(outcome, 'request completed');
  else log.info(outcome, 'request completed');
}
