import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { answerClientErrorInJson } from './client-errors';
import { parseJsonBody } from './json-body';

/** The largest request body the API reads (a 413 above it, before the body is read). */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Fastify's router answers 404 to a path parameter longer than this; the routes' own checks
 * (IdentifierParam, 1–128 characters) must see long ones to answer the 400 that names them.
 */
const MAX_PARAM_LENGTH = 8 * 1024;

/**
 * The API's HTTP server: Fastify (issue 18: the framework under the same request costs half of what
 * Express costs, BENCHMARKS.md round 7). Bodies are read by one JSON parser only (`jsonBodiesOnly`
 * answers 415 to any other type before it reads), `/path/` is `/path` as it was under Express, and
 * requests Node cannot parse, or the router refuses (`frameworkErrors`, refuseBeforeRouting), are
 * answered in the API's JSON error body.
 */
export function createHttpAdapter(
  frameworkErrors: FastifyServerOptions['frameworkErrors'],
): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Node's own defaults, which Fastify changes (72 s, none): a drained server's idle keep-alive
    // connections are closed by their clients within 5 s (`Keep-Alive: timeout=5`, http-drain.ts),
    // and a request that takes 5 minutes to arrive is a 408.
    keepAliveTimeout: 5_000,
    requestTimeout: 300_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientErrorInJson,
    frameworkErrors,
  });
  const fastify = adapter.getInstance();
  // Set by AuthGuard on every authenticated request: declared, so requests keep one shape.
  fastify.decorateRequest('principal', null);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  return adapter;
}
