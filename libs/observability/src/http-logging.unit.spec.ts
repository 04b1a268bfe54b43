import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { storage } from 'nestjs-pino/storage';
import { createEngramLogger } from './engram-logger';
import { TRACE_ID_HEADER, requestLogging } from './http-logging';

function logged() {
  const written: string[] = [];
  const logger = createEngramLogger({
    level: 'info',
    service: 'engram-api',
    stream: { write: (line: string) => void written.push(line) },
  });
  return {
    logger,
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A response that keeps its headers and emits finish or close as the test says. */
function response(statusCode: number) {
  const headers = new Map<string, unknown>();
  return Object.assign(new EventEmitter(), {
    statusCode,
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  });
}

function request(url: string, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    url,
    headers,
    routeOptions: { url: '/v1/workspaces/:ws/users/:userId/messages' },
  };
}

describe('requestLogging', () => {
  it('writes one line per request: method, route template, status, time, correlation id, trace id', () => {
    const { logger, lines } = logged();
    const res = response(202);
    const req = request('/v1/workspaces/w/users/secret-user/messages?q=secret', {
      'x-correlation-id': 'corr-1',
    });
    requestLogging(logger)(req, res as unknown as ServerResponse, () => undefined);
    res.setHeader(TRACE_ID_HEADER, 'trace-9');
    res.emit('finish');
    res.emit('close');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        service: 'engram-api',
        msg: 'request completed',
        req: { method: 'POST' },
        res: { statusCode: 202 },
        correlationId: 'corr-1',
        route: '/v1/workspaces/:ws/users/:userId/messages',
        traceId: 'trace-9',
        responseTime: expect.any(Number) as number,
      }),
    ]);
    expect(JSON.stringify(lines())).not.toContain('secret');
    expect(res.getHeader('x-correlation-id')).toBe('corr-1');
  });

  it('gives a new correlation id when the caller has none, written back on the request', () => {
    const { logger } = logged();
    const req = request('/health');
    const res = response(200);
    requestLogging(logger)(req, res as unknown as ServerResponse, () => undefined);
    expect(req.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.getHeader('x-correlation-id')).toBe(req.headers['x-correlation-id']);
  });

  it('logs a 4xx as warn, a 5xx as error with its status, and no line for /metrics', () => {
    const { logger, lines } = logged();
    for (const [url, status] of [
      ['/a', 404],
      ['/b', 503],
      ['/metrics', 200],
    ] as const) {
      const res = response(status);
      requestLogging(logger)(request(url), res as unknown as ServerResponse, () => undefined);
      res.emit('close');
    }
    expect(
      lines().map((line) => [
        line.level,
        line.msg,
        (line.res as { statusCode: number }).statusCode,
      ]),
    ).toEqual([
      ['warn', 'request completed', 404],
      ['error', 'request errored', 503],
    ]);
    expect(lines()[1]!.err).toMatchObject({ message: 'failed with status code 503' });
  });

  it('binds the request to the logger the application logs through while it is handled', () => {
    const { logger, lines } = logged();
    requestLogging(logger)(
      request('/x', { 'x-correlation-id': 'corr-2' }),
      response(200) as unknown as ServerResponse,
      () => storage.getStore()!.logger.info({ context: 'Audit' }, 'inside'),
    );
    expect(lines()).toEqual([
      expect.objectContaining({ msg: 'inside', context: 'Audit', correlationId: 'corr-2' }),
    ]);
  });
});
