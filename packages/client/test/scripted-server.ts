import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  { status: number; headers?: Record<string, string>; body?: unknown; chunks?: string[] } | 'drop';

export type Received = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
};

/**
 * A real HTTP server answering each request with the next scripted answer (or dropping the
 * connection), recording what it received: the client's retries are tested over the wire.
 */
export async function scriptedServer(
  answer: (request: Received, index: number) => Answer,
): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const request: Received = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
      received.push(request);
      const scripted = answer(request, received.length - 1);
      if (scripted === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(scripted.status, {
        'content-type': scripted.chunks ? 'application/x-ndjson' : 'application/json',
        ...scripted.headers,
      });
      if (scripted.chunks) {
        for (const chunk of scripted.chunks) res.write(chunk);
        res.end();
      } else {
        res.end(scripted.body === undefined ? '' : JSON.stringify(scripted.body));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
