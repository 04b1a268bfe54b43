import type request from 'supertest';

/** supertest does not buffer application/x-ndjson by itself: keep the body as text (`.parse(asText)`). */
export function asText(res: request.Response, done: (error: Error | null, body: string) => void) {
  // At parse time the response is still Node's incoming message.
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}

/** The objects of an NDJSON body kept as text: one per non-empty line. */
export function ndjsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}
