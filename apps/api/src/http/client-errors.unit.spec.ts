import type { Socket } from 'node:net';
import { answerClientErrorInJson } from './client-errors';

/** A socket that records what is written to it. */
function fakeSocket(bytesWritten = 0) {
  const socket = {
    writable: true,
    bytesWritten,
    written: '',
    destroyed: false,
    end(text: string) {
      socket.written += text;
    },
    destroy() {
      socket.destroyed = true;
    },
  };
  return socket;
}

function clientError(code: string, socket = fakeSocket()) {
  answerClientErrorInJson(Object.assign(new Error(code), { code }), socket as unknown as Socket);
  const [head = '', body = ''] = socket.written.split('\r\n\r\n');
  return { head, body: body ? (JSON.parse(body) as unknown) : undefined, socket };
}

describe('answerClientErrorInJson', () => {
  it('answers headers too large with a 431 and the API error body', () => {
    const { head, body } = clientError('HPE_HEADER_OVERFLOW');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toContain('Content-Type: application/json');
    expect(head).toContain('Connection: close');
    expect(body).toEqual({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: 'The request headers are larger than the 16 KB this server reads',
    });
  });

  it.each([
    ['HPE_INVALID_METHOD', 400],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413],
  ])('answers %s with a %i as JSON, as Node would with its status', (code, status) => {
    expect(clientError(code).body).toMatchObject({ statusCode: status });
  });

  it('writes nothing on a reset connection or one already answered, and closes it', () => {
    const reset = clientError('ECONNRESET');
    expect(reset.socket.written).toBe('');
    expect(reset.socket.destroyed).toBe(true);
    const answered = clientError('HPE_INVALID_METHOD', fakeSocket(120));
    expect(answered.socket.written).toBe('');
    expect(answered.socket.destroyed).toBe(true);
  });
});
