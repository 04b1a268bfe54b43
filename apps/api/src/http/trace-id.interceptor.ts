import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { tap, type Observable } from 'rxjs';
import { isIdentifier } from '@engram/domain';
import { TRACE_ID_HEADER } from '@engram/observability';

/**
 * Answers that name an interaction's trace (a recorded message, an action) also carry it in
 * `X-Trace-Id`, where the request log line picks it up.
 */
@Injectable()
export class TraceIdInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<ServerResponse>();
    return next.handle().pipe(
      tap((body) => {
        const traceId = (body as { traceId?: unknown } | null | undefined)?.traceId;
        if (isIdentifier(traceId) && !response.headersSent) {
          response.setHeader(TRACE_ID_HEADER, traceId);
        }
      }),
    );
  }
}
