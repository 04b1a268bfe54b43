import type { IncomingMessage } from 'node:http';
import { UnsupportedMediaTypeException } from '@nestjs/common';

/** A body is there when its length is above 0 or it comes in chunks (body-parser's reading too). */
type Request = Pick<IncomingMessage, 'headers'>;

function carriesBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

function mediaTypeOf(request: Request): string | undefined {
  return request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/**
 * Request bodies are JSON or nothing: any other content type is a 415 before a parser reads it. A
 * form body used to be parsed into the same kind of object as JSON (nested keys, repeated fields,
 * every value a string) and reached the DTOs by another road. Called last by the request edge
 * (`requestEdge`, the onRequest hook): its error goes to the error filter.
 */
export function jsonBodiesOnly(
  request: Request,
  _response: unknown,
  next: (error?: unknown) => void,
): void {
  const mediaType = mediaTypeOf(request);
  if (carriesBody(request) && mediaType !== 'application/json') {
    const given = mediaType ? `not ${mediaType.slice(0, 100)}` : 'this one has no Content-Type';
    next(new UnsupportedMediaTypeException(`Request bodies must be application/json: ${given}`));
    return;
  }
  next();
}
