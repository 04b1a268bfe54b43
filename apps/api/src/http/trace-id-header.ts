import type { FastifyInstance } from 'fastify';
import { isIdentifier } from '@engram/domain';
import { TRACE_ID_HEADER } from '@engram/observability';

/**
 * Answers that name an interaction's trace (a recorded message, an action) also carry it in
 * `X-Trace-Id`, where the request log line picks it up (on the Node response). Set when Fastify
 * serializes an object body (preSerialization), not by a global interceptor: with no interceptor at
 * all, Nest skips its rxjs pipeline on every request (issue 18, BENCHMARKS.md).
 */
export function useTraceIdHeader(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (_request, reply, payload, done) => {
    const traceId = (payload as { traceId?: unknown } | null | undefined)?.traceId;
    if (isIdentifier(traceId) && !reply.raw.headersSent) {
      reply.raw.setHeader(TRACE_ID_HEADER, traceId);
    }
    done(null, payload);
  });
}
