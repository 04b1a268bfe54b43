import type { ServerResponse } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { isIdentifier } from '@engram/domain';
import { TRACE_ID_HEADER } from '@engram/observability';

type JsonResponse = ServerResponse & { json: (body: unknown) => unknown };

/**
 * Answers that name an interaction's trace (a recorded message, an action) also carry it in
 * `X-Trace-Id`, where the request log line picks it up. Set where this app's express responses
 * serialize a body (`res.json`, which Nest's adapter calls for every object it answers), not by a
 * global interceptor: with no interceptor at all, Nest skips its rxjs pipeline on every request,
 * which cost more than the rest of the check (issue 18, BENCHMARKS.md).
 */
export function useTraceIdHeader(app: NestExpressApplication): void {
  // Express 5 gives each app its own response prototype: others (the bench's minimal app) are untouched.
  const prototype = (app.getHttpAdapter().getInstance() as { response: JsonResponse }).response;
  const json = prototype.json;
  prototype.json = function (this: JsonResponse, body: unknown) {
    const traceId = (body as { traceId?: unknown } | null | undefined)?.traceId;
    if (isIdentifier(traceId) && !this.headersSent) this.setHeader(TRACE_ID_HEADER, traceId);
    return json.call(this, body);
  };
}
