import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { requestLogging, type HttpMetrics } from '@engram/observability';
import { securityHeaders } from '../security/security-headers';
import { jsonBodiesOnly } from './json-bodies-only';

export type RequestEdge = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: FastifyError) => void,
) => void;

/**
 * What every request meets before a controller, as one Fastify onRequest hook (where the route is
 * already known): its latency timed, its log line with a correlation id (the rest of the request runs
 * in its logging context), the security headers, and bodies as JSON only (415, before the body is
 * read). Beside it: Node's parse errors (431...) answered in JSON by the server's clientErrorHandler,
 * the router's own refusals by `refuseBeforeRouting` through this same edge, no undeclared query
 * parameter (400) by DeclaredQueryGuard, and the validation pipe.
 */
export function requestEdge(logger: Logger, metrics: HttpMetrics): RequestEdge {
  const logRequest = requestLogging(logger);
  const setSecurityHeaders = securityHeaders();
  return (request, reply, done) => {
    const response = reply.raw;
    metrics.observe(request, response);
    logRequest(request, response, () => {
      setSecurityHeaders(request.url, response);
      jsonBodiesOnly(request, undefined, (error) => done(error as FastifyError | undefined));
    });
  };
}

/** What Fastify's router refuses before any route or hook (`frameworkErrors`), by error code. */
const REFUSALS: Readonly<Record<string, { status: number; error: string; message: string }>> = {
  FST_ERR_BAD_URL: {
    status: 400,
    error: 'Bad Request',
    message: 'The request path is not valid: a segment is not valid percent-encoding',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    error: 'URI Too Long',
    message: 'A path parameter of the request is longer than this server reads',
  },
};

/**
 * Fastify's `frameworkErrors`: a request its router refuses (a path that is not valid percent-encoding,
 * a parameter past the limit) is answered like any refused request, through the edge (`edge()`, set
 * once the app exists: logged, timed, with the security headers) and in the API's error body.
 */
export function refuseBeforeRouting(edge: () => RequestEdge | undefined) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const refusal = REFUSALS[error.code] ?? {
      status: 500,
      error: 'Internal Server Error',
      message: 'Internal error',
    };
    const answer = () =>
      void reply.status(refusal.status).send({
        statusCode: refusal.status,
        error: refusal.error,
        message: refusal.message,
      });
    const hook = edge();
    if (hook) hook(request, reply, answer);
    else answer();
  };
}
