import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';

/** Node's own answers to a request it cannot parse (`socketOnError` in node:http), by error code. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

function messageFor(status: number): string {
  switch (status) {
    case 431:
      // The server is made with Node's default (--max-http-header-size).
      return `The request headers are larger than the ${maxHeaderSize / 1024} KB this server reads`;
    case 413:
      return 'The chunk extensions of the request are too large';
    case 408:
      return 'The request took too long to arrive';
    default:
      return 'The request is not valid HTTP';
  }
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (headers too large: 431, malformed:
 * 400, too slow: 408) are answered with the API's error body `{ statusCode, error, message }`, not
 * Node's empty one (Fastify's `clientErrorHandler`, the server's one 'clientError' listener). It gives
 * every answer Node gave, and like Node writes nothing on a socket already answered or gone.
 */
export function answerClientErrorInJson(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  const body = JSON.stringify({
    statusCode: status,
    error: STATUS_CODES[status],
    message: messageFor(status),
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
