import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { Logger } from 'pino';
import { CORRELATION_ID_HEADER, correlationIdFrom } from './correlation-id';
import { routeTemplate } from './route-template';

/** Set by the API on answers that name an interaction's trace (messages, actions). */
export const TRACE_ID_HEADER = 'x-trace-id';

type RoutedRequest = IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };

/**
 * nestjs-pino settings of the API: one line per request with method, route template, status, time,
 * `correlationId` and, when the answer names one, `traceId`; no URL, query string, header or body.
 */
export function httpLoggingParams(logger: Logger): Params {
  const outcome = (request: IncomingMessage, response: ServerResponse, value: object) => {
    const traceId = response.getHeader(TRACE_ID_HEADER);
    return {
      ...value,
      route: routeTemplate(request as RoutedRequest),
      ...(typeof traceId === 'string' ? { traceId } : {}),
    };
  };
  return {
    pinoHttp: {
      logger,
      genReqId: (request, response) => {
        const id = correlationIdFrom(request.headers);
        // Written back so that the events a request records carry the id its log lines carry.
        request.headers[CORRELATION_ID_HEADER] = id;
        response.setHeader(CORRELATION_ID_HEADER, id);
        return id;
      },
      customProps: (request) => ({ correlationId: request.id }),
      serializers: {
        req: (request: { method?: string }) => ({ method: request.method }),
        res: (response: { statusCode?: number }) => ({ statusCode: response.statusCode }),
      },
      customSuccessObject: outcome,
      customErrorObject: outcome,
      customLogLevel: (_request, response, error) =>
        error || response.statusCode >= 500
          ? 'error'
          : response.statusCode >= 400
            ? 'warn'
            : 'info',
      // Prometheus scrapes every few seconds: its requests are counted, not logged.
      autoLogging: { ignore: (request) => (request.url ?? '').split('?')[0] === '/metrics' },
    },
  };
}
