import type { ServerResponse } from 'node:http';
import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { DataKeyDestroyedError } from '@engram/crypto';
import { DomainConflictError, DomainNotFoundError } from '@engram/domain';
import {
  AppendTooLargeError,
  DuplicateEventIdError,
  EventStoreAccessDeniedError,
  EventStoreMisconfiguredError,
  EventStoreUnavailableError,
  StreamDeletedError,
  UserEventsBehindError,
  WrongExpectedVersionError,
} from '@engram/event-store';
import { BODY_LIMIT_BYTES } from './http-adapter';

/** Fastify's reply (the error filter also answers for Fastify's own errors: body parser, limits). */
type Reply = {
  status: (code: number) => Reply;
  header: (name: string, value: string) => Reply;
  send: (body: unknown) => unknown;
  /** True once a handler took the Node response over (hijack: the MCP transport, the export). */
  sent?: boolean;
  raw: Pick<ServerResponse, 'headersSent' | 'statusCode' | 'setHeader' | 'end'>;
};

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Every error leaves as `{ statusCode, error, message }` with a message that says what is wrong. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<Reply>();
    if (reply.raw.headersSent) return;
    const { status, message } = this.describe(exception);
    const body = {
      statusCode: status,
      error: REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error'),
      message,
    };
    const retry = status === Number(HttpStatus.SERVICE_UNAVAILABLE);
    if (reply.sent === true) {
      // Fastify no longer answers on a hijacked reply: the error is written on the Node response.
      const response = reply.raw;
      response.statusCode = status;
      if (retry) response.setHeader('Retry-After', '1');
      response.setHeader('Content-Type', 'application/json; charset=utf-8');
      response.end(JSON.stringify(body));
      return;
    }
    if (retry) reply.header('Retry-After', '1');
    reply.status(status).send(body);
  }

  /**
   * The status and message an error answers with. Public for the MCP route, where a 4xx becomes a
   * tool result the model reads and a 5xx a protocol error.
   */
  describe(exception: unknown): { status: number; message: string } {
    if (exception instanceof HttpException) {
      const body = exception.getResponse();
      const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
      return {
        status: exception.getStatus(),
        message: Array.isArray(message)
          ? message.join('; ')
          : typeof message === 'string'
            ? message
            : exception.message,
      };
    }
    if (exception instanceof DomainConflictError)
      return { status: 409, message: exception.message };
    if (exception instanceof DomainNotFoundError)
      return { status: 404, message: exception.message };
    if (exception instanceof WrongExpectedVersionError) {
      return { status: 409, message: 'A concurrent change was made; retry the request' };
    }
    if (exception instanceof DuplicateEventIdError)
      return { status: 409, message: exception.message };
    if (exception instanceof DataKeyDestroyedError) {
      return {
        status: 410,
        message: 'This user was erased: no personal data can be recorded for them',
      };
    }
    if (exception instanceof StreamDeletedError) {
      return { status: 410, message: 'This record was erased' };
    }
    if (exception instanceof AppendTooLargeError) {
      const limit = exception.maxBytes === undefined ? '' : ` (${exception.maxBytes} bytes)`;
      return {
        status: 413,
        message: `This change is larger than the event store accepts in one write${limit}`,
      };
    }
    if (exception instanceof UserEventsBehindError) {
      this.logger.warn(String(exception));
      return {
        status: 503,
        message: "The user's latest events are still being indexed; retry shortly",
      };
    }
    if (
      exception instanceof EventStoreAccessDeniedError ||
      exception instanceof EventStoreMisconfiguredError
    ) {
      // The deployment's fault, not the caller's: said in the log, not to the client.
      this.logger.error(String(exception));
      return { status: 500, message: 'The event store is misconfigured; an operator must fix it' };
    }
    if (exception instanceof EventStoreUnavailableError || isUnavailable(exception)) {
      this.logger.warn(`Storage unavailable: ${String(exception)}`);
      return { status: 503, message: 'Storage is temporarily unavailable; retry shortly' };
    }
    if ((exception as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return {
        status: 413,
        message: `The request body is larger than the ${BODY_LIMIT_BYTES / 1024} KB this server reads`,
      };
    }
    const status = (exception as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own (an invalid Content-Length, a body that is not what it says...)
      return { status, message: (exception as Error).message };
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    return { status: 500, message: 'Internal error' };
  }
}

function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      '57P01',
      '57P03',
      '53300',
      '08006',
      '08001',
      '08003',
    ].includes(String(code)) ||
    /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/i.test(
      String((error as Error)?.message),
    )
  );
}
