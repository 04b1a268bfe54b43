import type { ArgumentsHost } from '@nestjs/common';
import {
  AppendTooLargeError,
  EventStoreAccessDeniedError,
  EventStoreMisconfiguredError,
  EventStoreUnavailableError,
  UserEventsBehindError,
} from '@engram/event-store';
import { ErrorFilter } from './error.filter';

function answer(exception: unknown) {
  const reply = {
    statusCode: 0,
    body: undefined as unknown,
    headers: {} as Record<string, string>,
    status(code: number) {
      reply.statusCode = code;
      return reply;
    },
    send(body: unknown) {
      reply.body = body;
    },
    header(name: string, value: string) {
      reply.headers[name] = value;
      return reply;
    },
    raw: { headersSent: false },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  const filter = new ErrorFilter();
  // The misconfigured store is logged as an error; the test only looks at the answer.
  Object.assign(filter, { logger: { error: () => undefined, warn: () => undefined } });
  filter.catch(exception, host);
  return reply;
}

describe('ErrorFilter, event store errors', () => {
  it.each([
    ['deadline exceeded', new EventStoreUnavailableError('deadline_exceeded')],
    ['unavailable', new EventStoreUnavailableError('unavailable')],
    ['not leader', new EventStoreUnavailableError('not_leader')],
    ['per-user index behind', new UserEventsBehindError('ws', 'u', 10n, 5n, 5000)],
  ])('answers %s with 503 and Retry-After', (_, error) => {
    const reply = answer(error);
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['Retry-After']).toBe('1');
    expect(reply.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
  });

  it('answers an append over the store limit with 413, naming the limit', () => {
    const reply = answer(new AppendTooLargeError('ws/u/session/s', 1048576));
    expect(reply.statusCode).toBe(413);
    expect(reply.body).toMatchObject({
      error: 'Payload Too Large',
      message: expect.stringMatching(/1048576 bytes/) as string,
    });
  });

  it.each([
    ['access denied', new EventStoreAccessDeniedError()],
    ['misconfigured', new EventStoreMisconfiguredError('$by_category is Stopped')],
  ])('answers %s with 500 without the detail', (_, error) => {
    const reply = answer(error);
    expect(reply.statusCode).toBe(500);
    expect(JSON.stringify(reply.body)).not.toContain('by_category');
    expect(reply.body).toMatchObject({
      message: 'The event store is misconfigured; an operator must fix it',
    });
  });
});

describe('ErrorFilter, on a reply its handler took over (hijack: the export, MCP)', () => {
  it('writes the error on the Node response while nothing was sent, and nothing after', () => {
    const written: { status?: number; headers: Record<string, string>; body?: string } = {
      headers: {},
    };
    const raw = {
      headersSent: false,
      statusCode: 200,
      setHeader: (name: string, value: string) => void (written.headers[name] = value),
      end: (body: string) => {
        written.status = raw.statusCode;
        written.body = body;
      },
    };
    const reply = { sent: true, raw, send: () => undefined, status: () => reply };
    const host = {
      switchToHttp: () => ({ getResponse: () => reply }),
    } as unknown as ArgumentsHost;
    const filter = new ErrorFilter();
    Object.assign(filter, { logger: { error: () => undefined, warn: () => undefined } });
    filter.catch(new EventStoreUnavailableError('unavailable'), host);
    expect(written.status).toBe(503);
    expect(written.headers).toMatchObject({
      'Retry-After': '1',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(JSON.parse(written.body!)).toMatchObject({ statusCode: 503 });

    raw.headersSent = true;
    written.body = undefined;
    filter.catch(new EventStoreUnavailableError('unavailable'), host);
    expect(written.body).toBeUndefined();
  });
});
