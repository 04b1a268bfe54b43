import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 128 });

export type HttpAnswer = Readonly<{ status: number; body: string }>;

export type HttpRequest = Readonly<{
  method?: string;
  /** Sent as a bearer token; left out when undefined (an anonymous call). */
  token?: string;
  body?: unknown;
}>;

/** One HTTP call over a keep-alive connection; resolves with whatever status the server answered. */
export function exchange(url: string, init: HttpRequest): Promise<HttpAnswer> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: init.method ?? 'GET',
        headers: {
          ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
